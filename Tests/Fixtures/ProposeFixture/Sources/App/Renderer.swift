import Schedulable

final class Renderer: ConfinedObject {
    let confinement = Confinement.observed()
    @Confined var frames = 0
}
