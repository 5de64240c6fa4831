// `import BackgroundTasks` on Linux (through the alias `BackgroundTasks=OffstageBackgroundTasks`): Offstage's implementation of BackgroundTasks's background
// surface, with Apple's names, lives in OffstageKit; this module only re-exports it.
@_exported public import OffstageKit
