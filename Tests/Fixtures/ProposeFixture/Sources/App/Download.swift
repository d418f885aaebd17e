import Schedulable

final class Download: ConfinedObject {
    let confinement = Confinement.observed()
    @Confined var data: [UInt8] = []

    func fetch() { data = [1] }

    func save() { _ = data }
}
