import Dispatch
import Testing

@testable import Schedulable

/// An actor whose jobs run as events of a thread scheduler.
private actor ThreadMailbox {
    let scheduler: ThreadScheduler
    var items: [Int] = []

    init(scheduler: ThreadScheduler) {
        self.scheduler = scheduler
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.asUnownedSerialExecutor() }

    func add(_ item: Int) -> Bool {
        items.append(item)
        return scheduler.isIsolated
    }
}

/// An actor whose jobs run on a queue scheduler.
private actor QueueMailbox {
    let scheduler: SerialQueueScheduler
    var items: [Int] = []

    init(scheduler: SerialQueueScheduler) {
        self.scheduler = scheduler
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.asUnownedSerialExecutor() }

    func add(_ item: Int) -> Bool {
        items.append(item)
        return scheduler.isIsolated
    }
}

@Suite("Schedulers as actor executors")
struct SerialExecutorTests {
    @Test func actorOnAThreadSchedulerRunsItsJobsThere() async {
        let scheduler = ThreadScheduler(label: "test.executor.thread")
        defer { scheduler.shutdown() }
        let mailbox = ThreadMailbox(scheduler: scheduler)
        for item in 0..<100 {
            #expect(await mailbox.add(item))
        }
        #expect(await mailbox.items == Array(0..<100))
    }

    @Test func actorOnAThreadSchedulerPassesAssumeIsolatedInThatSchedulersEvents() {
        let scheduler = ThreadScheduler(label: "test.executor.assume")
        defer { scheduler.shutdown() }
        let mailbox = ThreadMailbox(scheduler: scheduler)
        // A plain event of the scheduler, not one of the actor's jobs: the runtime cannot know it is
        // isolated; the scheduler's checks answer from the context token.
        let count = scheduler.sync {
            mailbox.preconditionIsolated()
            return mailbox.assumeIsolated { mailbox in
                mailbox.items.append(7)
                return mailbox.items.count
            }
        }
        #expect(count == 1)
    }

    @Test func isolationQueriesAreExactForAThreadScheduler() {
        let scheduler = ThreadScheduler(label: "test.executor.query")
        defer { scheduler.shutdown() }
        #expect(scheduler.isIsolatingCurrentContext() == false)
        #expect(scheduler.sync { scheduler.isIsolatingCurrentContext() } == true)
    }

    @Test(.exitTest) func actorOnAnotherSchedulerFailsAssumeIsolated() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let home = ThreadScheduler(label: "test.executor.home")
            let elsewhere = ThreadScheduler(label: "test.executor.elsewhere")
            let mailbox = ThreadMailbox(scheduler: home)
            elsewhere.sync {
                mailbox.assumeIsolated { _ in }
            }
        }
        // isIsolatingCurrentContext() answered an exact "no", so the runtime stops the process itself.
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("Incorrect actor executor assumption"))
    }

    @Test(.exitTest) func checkIsolatedOffTheSchedulerPrintsTheReportAndStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let home = ThreadScheduler(label: "test.executor.check")
            let elsewhere = ThreadScheduler(label: "test.executor.other")
            elsewhere.sync { home.checkIsolated() }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("expected owner:  thread scheduler \"test.executor.check\""))
        #expect(stderr.contains("actual context:  thread scheduler \"test.executor.other\""))
    }

    @Test func actorOnASerialQueueSchedulerRunsItsJobsThere() async {
        let scheduler = SerialQueueScheduler(label: "test.executor.queue")
        let mailbox = QueueMailbox(scheduler: scheduler)
        for item in 0..<100 {
            #expect(await mailbox.add(item))
        }
        #expect(await mailbox.items == Array(0..<100))
    }

    @Test func actorOnATreePassesAssumeIsolatedOnItsBranches() {
        let tree = SerialQueueScheduler(label: "test.executor.tree")
        let branch = tree.branch("leaf")
        let mailbox = QueueMailbox(scheduler: tree)
        let count = branch.sync {
            mailbox.assumeIsolated { mailbox in
                mailbox.items.append(1)
                return mailbox.items.count
            }
        }
        #expect(count == 1)
        #expect(tree.isIsolatingCurrentContext() == nil)
        #expect(branch.sync { tree.isIsolatingCurrentContext() } == true)
    }

    @Test(.exitTest) func actorOnABranchFailsAssumeIsolatedOnItsTreeWithTheReport() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let tree = SerialQueueScheduler(label: "test.executor.tree2")
            let mailbox = QueueMailbox(scheduler: tree.branch("leaf"))
            tree.sync {
                mailbox.assumeIsolated { _ in }
            }
        }
        // The token said "unsure" (nil), so the runtime asked checkIsolated(), which printed the
        // report before libdispatch stopped the process.
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("expected owner:  queue \"test.executor.tree2.leaf\""))
        #expect(stderr.contains("actual context:  queue \"test.executor.tree2\""))
    }
}
