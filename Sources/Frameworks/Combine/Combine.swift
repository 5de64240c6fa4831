// `import Combine` on Linux (through the alias `Combine=OffstageCombine`): OpenCombine with Apple's names, and its
// Foundation and Dispatch parts, which give `NotificationCenter.publisher(for:)`, `Timer.publish`,
// `URLSession.dataTaskPublisher` and `DispatchQueue`, `RunLoop` and `OperationQueue` as schedulers.
@_exported public import OpenCombine
@_exported public import OpenCombineDispatch
@_exported public import OpenCombineFoundation
