/// The body of a synchronous call and its result, carried to the scheduler's thread and back.
final class SyncCall<T, E: Error>: @unchecked Sendable {
    // @unchecked: `body` and `result` are used first on the scheduler's thread, then — after the
    // completion signal, which orders the accesses — on the waiting caller's thread; never at once.
    /// The body, already turned into a closure that returns a `Result`: an optional of a typed-throws
    /// function type (`(() throws(E) -> T)?`) needs runtime metadata that only macOS 15 / iOS 18 have.
    private var body: (() -> Result<T, E>)?
    var result: Result<T, E>?

    init(body: @escaping () throws(E) -> T) {
        self.body = {
            do throws(E) {
                return .success(try body())
            } catch {
                return .failure(error)
            }
        }
    }

    /// Runs the body once and lets go of it before the caller is woken: the body is a non-escaping
    /// closure lent through `withoutActuallyEscaping`, which must not outlive the call.
    func run() {
        result = body.take()!()
    }
}
