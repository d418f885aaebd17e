import Schedulable

final class UploadQueue: ConfinedObject {
    let confinement = Confinement.observed()
    @Confined var pending: [String] = []

    func enqueue(_ name: String) {
        pending.append(name)
    }
}
