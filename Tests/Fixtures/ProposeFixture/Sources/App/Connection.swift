import Schedulable

final class Connection: ConfinedObject {
    let confinement = Confinement.observed()
    @Confined var bytes = 0
}
