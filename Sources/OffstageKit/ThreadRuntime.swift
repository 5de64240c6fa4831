import Glibc

/// The app runtime bound to each thread, kept in a POSIX thread-specific slot: it is read at every
/// `UIApplication.shared` and bound before each block of simulated app code, so it must cost a load.
enum ThreadRuntime {
    /// The slot; a thread that ends releases the runtime it held.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<AppRuntime>.fromOpaque(pointer).release() }
        }
        return key
    }()

    /// The runtime bound to the calling thread, if any.
    static var current: AppRuntime? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<AppRuntime>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Binds `runtime` to the calling thread, in place of the one bound before.
    static func bind(_ runtime: AppRuntime) {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passRetained(runtime).toOpaque())
        if let previous { Unmanaged<AppRuntime>.fromOpaque(previous).release() }
    }
}
