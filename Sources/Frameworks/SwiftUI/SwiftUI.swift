// `import SwiftUI` on Linux (through the alias `SwiftUI=OffstageSwiftUI`): the background surface of a SwiftUI app
// lives in OffstageKit; SwiftUI re-exports Combine on Apple platforms (`ObservableObject`, `@Published`), and so does
// this module.
@_exported public import OffstageCombine
@_exported public import OffstageKit
