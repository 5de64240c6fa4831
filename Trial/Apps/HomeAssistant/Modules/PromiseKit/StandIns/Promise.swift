import Dispatch
import Foundation

// A stand-in for PromiseKit 8 (ours, not a copy): the part of its surface Home Assistant's background code uses,
// with PromiseKit's rule that handlers run on the main queue unless told otherwise.

/// What a settled promise holds: its value or its error (PromiseKit's `Result`).
public enum Result<T> {
    case fulfilled(T)
    case rejected(Error)
}

/// Settles the promise it was made for, once (PromiseKit's `Resolver`, `seal` in closures).
public final class Resolver<T> {
    let promise: Promise<T>
    init(_ promise: Promise<T>) { self.promise = promise }
    public func fulfill(_ value: T) { promise.settle(.fulfilled(value)) }
    public func reject(_ error: Error) { promise.settle(.rejected(error)) }
}

extension Resolver where T == Void {
    public func fulfill() { fulfill(()) }
}

/// A value to come, or an error: handlers added before or after it settles run once it has.
public final class Promise<T> {
    private let lock = NSLock()
    private var result: Result<T>?
    private var waiting: [(Result<T>) -> Void] = []

    /// A promise settled by `body` through its resolver; an error thrown rejects it.
    public init(resolver body: (Resolver<T>) throws -> Void) {
        do { try body(Resolver(self)) } catch { settle(.rejected(error)) }
    }

    init() {}

    /// A promise already fulfilled with `value`.
    public static func value(_ value: T) -> Promise<T> { Promise { $0.fulfill(value) } }

    /// A promise already rejected with `error`.
    public convenience init(error: Error) { self.init { $0.reject(error) } }

    func settle(_ settled: Result<T>) {
        lock.lock()
        guard result == nil else { return lock.unlock() }
        result = settled
        let handlers = waiting
        waiting = []
        lock.unlock()
        handlers.forEach { $0(settled) }
    }

    /// Calls `handler` on `queue` with the result once the promise settles.
    func pipe(on queue: DispatchQueue?, _ handler: @escaping (Result<T>) -> Void) {
        let run: (Result<T>) -> Void = { result in
            if let queue { queue.async { handler(result) } } else { handler(result) }
        }
        lock.lock()
        if let result {
            lock.unlock()
            run(result)
        } else {
            waiting.append(run)
            lock.unlock()
        }
    }

    /// Chains the promise `body` makes from this one's value.
    public func then<U>(on queue: DispatchQueue? = .main, _ body: @escaping (T) throws -> Promise<U>) -> Promise<U> {
        let next = Promise<U>()
        pipe(on: queue) { result in
            switch result {
            case .fulfilled(let value):
                do { try body(value).pipe(on: nil, next.settle) } catch { next.settle(.rejected(error)) }
            case .rejected(let error):
                next.settle(.rejected(error))
            }
        }
        return next
    }

    /// Maps the value.
    public func map<U>(on queue: DispatchQueue? = .main, _ transform: @escaping (T) throws -> U) -> Promise<U> {
        then(on: queue) { value in Promise<U>.value(try transform(value)) }
    }

    /// Runs `body` with the value; the chain goes on with no value.
    public func done(on queue: DispatchQueue? = .main, _ body: @escaping (T) throws -> Void) -> Promise<Void> {
        then(on: queue) { value in
            try body(value)
            return Promise<Void>.value(())
        }
    }

    /// Runs `body` on an error; ends the chain.
    @discardableResult
    public func `catch`(on queue: DispatchQueue? = .main, _ body: @escaping (Error) -> Void) -> PMKFinalizer {
        pipe(on: queue) { if case .rejected(let error) = $0 { body(error) } }
        return PMKFinalizer()
    }

    /// Runs `body` whatever the outcome; the chain keeps the outcome.
    public func ensure(on queue: DispatchQueue? = .main, _ body: @escaping () -> Void) -> Promise<T> {
        let next = Promise<T>()
        pipe(on: queue) { result in
            body()
            next.settle(result)
        }
        return next
    }

    /// Shows `body` the outcome; the chain keeps it.
    public func tap(on queue: DispatchQueue? = .main, _ body: @escaping (Result<T>) -> Void) -> Promise<T> {
        let next = Promise<T>()
        pipe(on: queue) { result in
            body(result)
            next.settle(result)
        }
        return next
    }

    /// The same outcome without the value.
    public func asVoid() -> Promise<Void> { map(on: nil) { _ in () } }
}

/// The end of a chain (PromiseKit's `PMKFinalizer`).
public final class PMKFinalizer {
    /// Runs `body` once the chain has ended.
    public func finally(_ body: @escaping () -> Void) { DispatchQueue.main.async(execute: body) }
}

/// Starts a chain with the promise `body` makes.
public func firstly<U>(execute body: () throws -> Promise<U>) -> Promise<U> {
    do { return try body() } catch { return Promise(error: error) }
}

/// Fulfilled with every value once all are; rejected with the first error.
public func when<T>(fulfilled promises: [Promise<T>]) -> Promise<[T]> { whenAll(promises) }

/// Fulfilled once all are; rejected with the first error.
public func when(fulfilled promises: [Promise<Void>]) -> Promise<Void> { whenAll(promises).asVoid() }

/// The values of all the promises once all are fulfilled, or the first error.
func whenAll<T>(_ promises: [Promise<T>]) -> Promise<[T]> {
    guard !promises.isEmpty else { return .value([]) }
    let all = Promise<[T]>()
    let lock = NSLock()
    var values = [T?](repeating: nil, count: promises.count)
    var left = promises.count
    for (index, promise) in promises.enumerated() {
        promise.pipe(on: nil) { result in
            switch result {
            case .fulfilled(let value):
                lock.lock()
                values[index] = value
                left -= 1
                let done = left == 0
                lock.unlock()
                if done { all.settle(.fulfilled(values.map { $0! })) }
            case .rejected(let error):
                all.settle(.rejected(error))
            }
        }
    }
    return all
}
