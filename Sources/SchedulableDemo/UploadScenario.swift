import Foundation
import Schedulable

/// Where the upload service runs.
enum Placement: CaseIterable {
    /// The service belongs to the main thread: the seed's starting point.
    case mainThread
    /// The service belongs to a dedicated `ThreadScheduler`: the SchedulableObject pattern.
    case backgroundScheduler

    var title: String {
        switch self {
        case .mainThread: "service on the main thread"
        case .backgroundScheduler: "service on a background ThreadScheduler"
        }
    }
}

/// What one run of the scenario measured.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // ContinuousClock, Duration
struct ScenarioResult {
    let placement: Placement
    /// From the user's tap to the result arriving on the main thread.
    let total: Duration
    /// The main thread's frames during that time.
    let frames: FrameStats
    /// How many photos ended up queued (a sanity check that the work really ran).
    let queued: Int
}

/// Runs the seed's scenario on the main thread's frame loop: a few idle frames, then the user adds
/// `photos` at once; frames keep being scheduled every 16.7 ms until the result is back on the main
/// thread. Must be called on the main thread.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // ContinuousClock, Duration
func runUploadScenario(_ placement: Placement, photos: [Photo], costPerPhoto: Duration) -> ScenarioResult {
    let clock = ContinuousClock()
    let main = MainThreadScheduler.shared
    let monitor = SchedulerBound(FrameMonitor(), owner: main)
    let idleFramesBeforeTap = 3
    let framesAfterResult = 3

    var frame = 0
    var tappedAt: ContinuousClock.Instant?
    var framesSinceResult = 0
    var nextFrame = clock.now
    while framesSinceResult < framesAfterResult {
        let now = clock.now
        monitor.value.frameStarted(at: now)
        if frame == idleFramesBeforeTap {
            tappedAt = now
            userTapsAdd(placement, photos: photos, costPerPhoto: costPerPhoto, monitor: monitor)
        }
        if monitor.value.isFinished() { framesSinceResult += 1 }
        frame += 1
        // Like a display link: the next frame is due one budget after this one was due; a late frame
        // does not make the following ones try to catch up.
        nextFrame = max(nextFrame + FrameStats.budget, clock.now)
        let wait = clock.now.duration(to: nextFrame)
        RunLoop.main.run(until: Date(timeIntervalSinceNow: Double(wait.components.attoseconds) / 1e18))
    }

    guard let tappedAt, let finishedAt = monitor.value.finishedAt else {
        preconditionFailure("the frame loop ends only after the result arrived")
    }
    return ScenarioResult(
        placement: placement,
        total: finishedAt - tappedAt,
        frames: FrameStats(gaps: monitor.value.frameGaps(from: tappedAt)),
        queued: monitor.value.queuedPhotos
    )
}

/// The user's action: add `photos` to the upload queue and show the count when done.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // ContinuousClock, Duration
private func userTapsAdd(
    _ placement: Placement, photos: [Photo], costPerPhoto: Duration,
    monitor: SchedulerBound<FrameMonitor>
) {
    let main = MainThreadScheduler.shared
    switch placement {
    case .mainThread:
        // The seed's app: the handler runs the whole batch on the main thread, between two frames.
        let service = SchedulerBound(UploadQueue(owner: main, costPerPhoto: costPerPhoto), owner: main)
        main.schedule {
            for photo in photos { service.value.add(photo) }
            monitor.value.markFinished(at: ContinuousClock.now, queuedPhotos: service.value.pendingCount())
        }
    case .backgroundScheduler:
        // The SchedulableObject pattern: the service belongs to its own scheduler; the main thread
        // only sends it work and receives the result.
        // The seed's business-logic thread: one dedicated thread with its own event loop.
        let uploads = ThreadScheduler(label: "com.example.uploads", qos: .userInitiated)
        let service = SchedulerBound(UploadQueue(owner: uploads, costPerPhoto: costPerPhoto), owner: uploads)
        uploads.schedule {
            for photo in photos { service.value.add(photo) }
            let count = service.value.pendingCount()
            main.schedule {
                monitor.value.markFinished(at: ContinuousClock.now, queuedPhotos: count)
            }
            // Everything this scheduler had to do is done; let its thread end once this event returns.
            uploads.shutdown()
        }
    }
}
