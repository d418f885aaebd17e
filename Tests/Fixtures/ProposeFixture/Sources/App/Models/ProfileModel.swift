import Schedulable

final class ProfileModel: ConfinedObject {
    let confinement: Confinement = Confinement.observed()  // owner unknown yet
    @Confined var name = ""
}
