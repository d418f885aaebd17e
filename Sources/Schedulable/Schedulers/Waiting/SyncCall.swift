/// The body of a synchronous call and its result, carried to the scheduler's thread and back.
final class SyncCall<T, E: Error>: @unchecked Sendable {
    // @unchecked: `body` and `result` are used first on the scheduler's thread, then — after the
    // completion signal, which orders the accesses — on the waiting caller's thread; never at once.
    private var body: (() throws(E) -> T)?
    var result: Result<T, E>?

    init(body: @escaping () throws(E) -> T) {
        self.body = body
    }

    /// Runs the body once and lets go of it before the caller is woken: the body is a non-escaping
    /// closure lent through `withoutActuallyEscaping`, which must not outlive the call.
    func run() {
        let body = self.body.take()!
        do throws(E) {
            result = .success(try body())
        } catch {
            result = .failure(error)
        }
    }
}
