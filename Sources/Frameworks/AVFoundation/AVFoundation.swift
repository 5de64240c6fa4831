// `import AVFoundation` on Linux (through the alias `AVFoundation=OffstageAVFoundation`): Offstage's implementation of AVFoundation's background
// surface, with Apple's names, lives in OffstageKit; this module only re-exports it.
@_exported public import OffstageKit
