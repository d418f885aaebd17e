import Dispatch

/// A Swift 5-mode module, as many dependencies still are: its completion handlers, delegate calls and
/// parallel loops run on queues of its own, and its closure types say nothing of isolation, so Swift 6
/// code hands it `@MainActor` closures without a warning. Each call waits for its callback, so a test
/// ends after the callback ran.
public enum LegacyLoader {
    /// Calls `completion` on a global queue and waits for it.
    public static func load(completion: @escaping () -> Void) {
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) { completion() }
        done.wait()
    }

    /// Calls `body` for each index in parallel (`concurrentPerform`) and returns when all are done.
    public static func forEachInParallel(_ count: Int, _ body: @escaping (Int) -> Void) {
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) { DispatchQueue.concurrentPerform(iterations: count) { body($0) } }
        done.wait()
    }
}

/// A delegate protocol of the Swift 5 module; a Swift 6 `@MainActor` class conforms with
/// `@preconcurrency`.
public protocol LegacyDelegate: AnyObject {
    /// Called on the notifier's own queue.
    func notifierDidFinish()
}

/// Calls its delegate on its own serial queue, as many Objective-C-era APIs do.
public final class LegacyNotifier {
    private let queue = DispatchQueue(label: "legacy.notifier")
    /// The delegate, held weakly.
    public weak var delegate: LegacyDelegate?

    /// A notifier with no delegate yet.
    public init() {}

    /// Calls the delegate on the notifier's queue and waits for it.
    public func finish() {
        queue.sync { self.delegate?.notifierDidFinish() }
    }
}
