import Dispatch
import Schedulable

@MainActor final class AvatarViewModel {
    var loaded = false
}

/// `MainActor.assumeIsolated` in a completion handler that runs on a global queue: Swift's own check
/// fails there. An app's debug run that opted in gets the report and goes on; without the opt-in (or
/// SchedulableTesting in a test) the Swift runtime stops the process.
func isolationCheck() {
    ConfinementSystem.reportSwiftIsolationChecks()
    let model = MainActor.assumeIsolated { AvatarViewModel() }
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        MainActor.assumeIsolated { model.loaded = true }
        done.signal()
    }
    done.wait()
    ConfinementSystem.flushReports()
}
