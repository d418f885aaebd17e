import Dispatch
import Schedulable

/// A photo library owned by its queue, and one bad access from a helper on another queue while the
/// owner works: the bug ThreadSanitizer sees as a data race on `pending` (the same program, built
/// with `--sanitize=thread`, is the Reporting Violations article's side-by-side).
let libraryQueue = SerialQueueScheduler(label: "com.app.library")

final class PhotoLibrary: ConfinedObject, @unchecked Sendable {
    let confinement = Confinement(owner: libraryQueue)
    @Confined var pending: [String] = []

    func add(_ photos: [String]) { pending += photos }
}

func forgetPending(_ library: PhotoLibrary) {
    library.pending.removeAll()          // the bad access: not on com.app.library
}

func dataRace() {
    let library = PhotoLibrary()
    let network = DispatchQueue(label: "com.app.network")
    // The owner is busy adding photos when the helper empties the list, on every run: the report's
    // "owner was" line is the same each time. The two accesses start together and stay unordered (the
    // race ThreadSanitizer looks for); the semaphores order only what comes before and after them.
    let ownerStarted = DispatchSemaphore(value: 0)
    let helperReady = DispatchSemaphore(value: 0)
    let helperDone = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    done.enter()
    libraryQueue.schedule {
        ownerStarted.signal()
        helperReady.wait()
        for photo in 1...1_000 { library.add(["IMG_\(photo).jpg"]) }
        helperDone.wait()
        done.leave()
    }
    network.async(group: done) {
        ownerStarted.wait()
        helperReady.signal()
        forgetPending(library)
        helperDone.signal()
    }
    done.wait()
}
