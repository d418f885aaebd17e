import Schedulable

/// The main thread's frame clock: records when each 60 Hz frame actually started, so the scenario can
/// say how long the UI was stalled. Owned by the main thread.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // ContinuousClock, Duration
final class FrameMonitor: ConfinedObject {
    let confinement = Confinement(owner: MainThreadScheduler.shared)

    @Confined(name: "frameStarts") var frameStarts: [ContinuousClock.Instant] = []
    @Confined(name: "finishedAt") var finishedAt: ContinuousClock.Instant? = nil
    @Confined(name: "queuedPhotos") var queuedPhotos = 0

    /// Records the start of a frame.
    func frameStarted(at instant: ContinuousClock.Instant) {
        assertIsolated()
        frameStarts.append(instant)
    }

    /// Records that the scenario's work has finished (called on the main thread when the result arrives).
    func markFinished(at instant: ContinuousClock.Instant, queuedPhotos: Int) {
        assertIsolated()
        if finishedAt == nil { finishedAt = instant }
        self.queuedPhotos = queuedPhotos
    }

    /// Whether the scenario's work has finished.
    func isFinished() -> Bool {
        assertIsolated()
        return finishedAt != nil
    }

    /// The gaps between consecutive frame starts from `start` on.
    func frameGaps(from start: ContinuousClock.Instant) -> [Duration] {
        assertIsolated()
        let starts = frameStarts.filter { $0 >= start }
        return zip(starts.dropFirst(), starts).map { $0 - $1 }
    }
}
