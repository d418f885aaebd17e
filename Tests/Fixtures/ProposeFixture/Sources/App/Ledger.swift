import Schedulable

final class Ledger: ConfinedObject {
    let confinement = Confinement(owner: uploads)
    @Confined var total = 0
}
