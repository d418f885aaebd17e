import Dispatch
import Schedulable

/// A result carried from work on a queue back to the waiting test.
final class ResultSlot<Value>: @unchecked Sendable {
    // @unchecked: written before the semaphore is signalled, read after it was waited for.
    var value: Value?
}

/// Runs `body` as raw asynchronous work on `queue` (or, with `scheduler`, as that scheduler's work)
/// and waits for its result.
func resultOnQueue<T: Sendable>(
    _ queue: DispatchQueue, wrappedIn scheduler: SerialQueueScheduler? = nil, _ body: @escaping @Sendable () -> T
) -> T {
    let result = ResultSlot<T>()
    let done = DispatchSemaphore(value: 0)
    let work: @Sendable () -> Void = {
        result.value = body()
        done.signal()
    }
    if let scheduler { scheduler.schedule(work) } else { queue.async(execute: work) }
    done.wait()
    return result.value!
}
