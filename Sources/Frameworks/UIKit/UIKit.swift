// `import UIKit` on Linux (through the alias `UIKit=OffstageUIKit`): Offstage's implementation of UIKit's background
// surface, with Apple's names, lives in OffstageKit; this module only re-exports it.
@_exported public import OffstageKit
