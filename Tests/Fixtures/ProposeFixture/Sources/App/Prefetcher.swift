import Schedulable

final class Prefetcher: ConfinedObject {
    let confinement = Confinement.observed()
    @Confined var pages = 0
}
