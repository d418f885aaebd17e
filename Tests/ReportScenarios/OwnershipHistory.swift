import Dispatch
import Schedulable

/// An upload batch built on an importer thread, handed to the uploads queue, then to the network
/// queue — and then used by the uploads queue, which no longer owns it: the report says how the
/// object got where it is.
final class UploadBatch: ConfinedObject, @unchecked Sendable {
    let confinement: Confinement
    @Confined var photos: [String] = []

    init(owner: some SerialScheduler, file: StaticString = #fileID, line: UInt = #line) {
        confinement = .transferable(owner: owner, file: file, line: line)
    }

    func add(_ photo: String) {
        assertIsolated()
        photos.append(photo)
    }
}

func ownershipHistory() {
    let importer = ThreadScheduler(label: "com.app.importer")
    let network = SerialQueueScheduler(label: "com.app.network")
    let batch = importer.sync { () -> UploadBatch in
        let batch = UploadBatch(owner: importer)
        batch.add("IMG_0001.jpg")
        batch.handOff(to: uploads)
        return batch
    }
    uploads.sync { batch.handOff(to: network) }
    uploads.sync { batch.add("IMG_0002.jpg") }      // the bad access: the batch belongs to the network queue now
}
