import Schedulable

final class Cache: ConfinedObject {
    let confinement = Confinement.observed()
    @Confined var entries = [String: Int]()
}
