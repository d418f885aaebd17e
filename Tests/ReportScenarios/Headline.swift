import Dispatch
import Schedulable

/// A warning in a program that goes on (the `warn` level): the headline the violating thread writes
/// itself, then the full report, written by the reporting thread, which names it.
final class RetrySettings: ConfinedObject {
    let confinement: Confinement
    @Confined var retries = 0

    init(owner: SerialQueueScheduler) {
        confinement = Confinement(owner: owner)
    }
}

func headline() {
    ConfinementSystem.bootstrap(policy: ConfinementPolicy(default: .warn))
    let owner = SerialQueueScheduler(label: "com.app.settings")
    let settings = RetrySettings(owner: owner)
    owner.sync { settings.retries = 3 }
    let network = DispatchQueue(label: "com.app.network")
    network.sync { settings.retries += 1 }   // reported; the program goes on, and exits normally
}
