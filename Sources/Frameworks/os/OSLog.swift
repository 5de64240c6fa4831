// `import os` on Linux (through the alias `os=OffstageOSLog`): `Logger` and `OSLogPrivacy`, with Apple's names, live
// in OffstageKit; this module only re-exports them.
@_exported public import OffstageKit
