// `import UserNotifications` on Linux (through the alias `UserNotifications=OffstageUserNotifications`): Offstage's implementation of UserNotifications's background
// surface, with Apple's names, lives in OffstageKit; this module only re-exports it.
@_exported public import OffstageKit
