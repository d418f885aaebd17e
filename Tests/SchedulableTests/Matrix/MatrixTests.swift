import CSchedulableContext
import Dispatch
import Foundation
import Schedulable
import Testing

/// One cell of the matrix that runs in the test process.
struct MatrixCellID: Sendable, CustomTestStringConvertible {
    var owner: MatrixOwner
    var context: MatrixContext
    var testDescription: String { "\(owner.rawValue) × \(context.rawValue)" }

    /// Every applicable cell the test process can run (the main thread's own cells run in the probe).
    static let inProcess: [MatrixCellID] = MatrixOwner.allCases.flatMap { owner in
        MatrixContext.allCases.compactMap { context in
            guard !context.runsInMainProbe, case .expect = matrixTable[owner]?[context] else { return nil }
            return MatrixCellID(owner: owner, context: context)
        }
    }
}

/// The threading model as an executable table (ThreadingModel.md's rule table): every owner kind
/// against every context, each cell repeated ``matrixRepetitions`` times, every repetition with a new
/// object and the same answer. Runs in every build CI has (debug, release, release with ReleaseChecks,
/// ThreadSanitizer): where the debug tier is compiled out the query alone answers and no report is
/// expected.
@Suite("Threading model matrix")
struct MatrixTests {
    @Test func everyCellIsStated() {
        for owner in MatrixOwner.allCases {
            for context in MatrixContext.allCases {
                #expect(matrixTable[owner]?[context] != nil, "no cell for \(owner) × \(context)")
            }
        }
    }

    /// ThreadingModel.md's rule table says what this table says, cell for cell (a known gap: what the
    /// library does today, with its footnote).
    @Test func theArticlesRuleTableIsThisTable() throws {
        let article = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/Schedulable/Schedulable.docc/ThreadingModel.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| ") }.map { line in
            line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let superscripts = CharacterSet(charactersIn: "¹²³⁴⁵⁶⁷⁸⁹⁰")
        func plain(_ cell: String) -> String { cell.trimmingCharacters(in: superscripts) }
        let header = try #require(rows.first { $0.first == "Context" })
        // The article's "Main" column is the main thread's rule, whichever way the owner is spelled
        // (`Confinement(owner: MainThreadScheduler.shared)` or `Confinement()`): both rows must say it.
        let columns: [String: [MatrixOwner]] = [
            "Main": [.main, .mainByDefault], "Tree": [.tree], "Branch": [.branch], "Sub-branch": [.subBranch],
            "Wrapped queue": [.wrappedQueue], "Thread scheduler": [.threadScheduler], "Actor executor": [.actorExecutor],
            "Detached, plain thread": [.detachedOnPlainThread],
        ]
        let owners = header.dropFirst().map { columns[plain($0)] ?? [] }
        #expect(owners.flatMap { $0 } == MatrixOwner.allCases.map { $0 }, "columns: \(header)")
        let contexts: [String: MatrixContext] = [
            "The owner's own work": .ownerWork,
            "Raw `async` onto the owner's queue": .rawAsyncOnOwnerQueue,
            "A branch below the owner": .branchBelow,
            "The owner's parent (the tree directly)": .parent,
            "A sibling branch": .sibling,
            "Another library scheduler": .otherScheduler,
            "Nested library `sync` from the owner's work": .nestedLibrarySync,
            "Nested raw `DispatchQueue.sync` from the owner's work": .nestedRawSync,
            "Nested raw `DispatchQueue.sync` from raw work on the owner's queue": .nestedRawSyncInRawWork,
            "A blocked caller's lent chain": .lentChain,
            "`Task` on the cooperative pool": .task,
            "A global queue": .globalQueue,
            "`concurrentPerform` from the owner's work": .concurrentPerform,
            "A plain `Thread`": .plainThread,
            "Main top-level code": .mainTopLevel,
            "`DispatchQueue.main` under `dispatchMain()`": .mainQueueUnderDispatchMain,
            "The initializer, on another thread": .initializerOnAnotherThread,
            "`deinit`, on another thread": .deinitOnAnotherThread,
        ]
        var seen: Set<MatrixContext> = []
        for row in rows where row.first != "Context" && row.first != "---" {
            guard let label = row.first, let context = contexts[plain(label)] else {
                Issue.record("a row of the article's table that the matrix does not have: \(row)")
                continue
            }
            seen.insert(context)
            for (column, written) in zip(owners, row.dropFirst()) {
                for owner in column {
                    let expected: String
                    switch matrixTable[owner]?[context] {
                    case .notApplicable, nil: expected = "—"
                    case .expect(let answer):
                        // The article states the rule; where a platform falls short (a known gap), its
                        // footnote says so, and the cell test holds the gap to its observed answer.
                        expected = answer == .exempt ? "not reported" : answer.description
                    }
                    #expect(plain(written) == expected, "\(owner) × \(context): the article says \(written)")
                }
            }
        }
        #expect(seen == Set(MatrixContext.allCases), "rows missing from the article: \(Set(MatrixContext.allCases).subtracting(seen))")
    }

    @Test(arguments: MatrixCellID.inProcess)
    func cell(_ cell: MatrixCellID) async throws {
        guard case .expect(let expected) = matrixTable[cell.owner]?[cell.context] else { return }
        let fixture = try MatrixOwnerFixture(cell.owner, label: "matrix.\(cell.owner.rawValue).\(cell.context.rawValue)")
        var answers: [MatrixAnswer: Int] = [:]
        var offCallerIterations = 0
        var attempts = 0
        // A concurrentPerform repetition whose iterations all ran on the calling thread shows nothing
        // about the others: it is run again (at most three times the repetitions in all).
        while answers.values.reduce(0, +) < matrixRepetitions && attempts < 3 * matrixRepetitions {
            attempts += 1
            let (answer, offCaller) = await Self.runOnce(cell.context, fixture)
            if let answer { answers[answer, default: 0] += 1 }
            offCallerIterations += offCaller
        }
        fixture.finish()
        if ProcessInfo.processInfo.environment["MATRIX_SUMMARY"] != nil {
            let spread = cell.context == .concurrentPerform ? " (\(offCallerIterations) iterations off the caller)" : ""
            print("matrix \(cell.testDescription): expected \(expected), observed \(answers)\(spread)")
        }
        let observedOnly = answers == [expected: matrixRepetitions]
        if let known = matrixKnownGaps[cell.owner]?[cell.context] {
            withKnownIssue(Comment(rawValue: known.gap)) {
                #expect(observedOnly, "observed \(answers)")
            }
            // The gap itself never varies either.
            #expect(answers == [known.observed: matrixRepetitions], "\(cell.testDescription): observed \(answers)")
        } else {
            #expect(observedOnly, "\(cell.testDescription): expected \(expected) every time, observed \(answers)")
        }
    }

    /// The cells that need the process's real main thread, run by `schedulable-main-probe` in top-level
    /// code: every owner from top-level code, and the main owner's nested contexts entered from
    /// top-level code (the same cells of the main row, with the main thread itself as the owner's work).
    @Test func mainThreadCellsInTopLevelCode() throws {
        let outcome = try runMainProbe(["matrix", "\(matrixRepetitions)"])
        #expect(outcome.exitStatus == 0, "stderr: \(outcome.standardError.suffix(2000))")
        #expect(!outcome.standardError.contains("ThreadSanitizer"))
        var observed: [String: [MatrixAnswer: Int]] = [:]
        for line in outcome.standardError.split(separator: "\n") where line.hasPrefix("matrix ") {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 7, let yes = Int(fields[3]), let count = Int(fields[4]),
                let reports = Int(fields[5]), let refusedOnCaller = Int(fields[6])
            else {
                Issue.record("unreadable probe line: \(line)")
                continue
            }
            let answer: MatrixAnswer
            if refusedOnCaller > 0 {
                answer = .inconsistent("\(refusedOnCaller) iterations on the calling thread (the owner's work) refused")
            } else if count == 0 {
                continue   // concurrentPerform ran every iteration on the main thread: nothing shown
            } else {
                answer = .judge(queries: Array(repeating: true, count: yes) + Array(repeating: false, count: count - yes), reports: reports)
            }
            observed["\(fields[1]) \(fields[2])", default: [:]][answer, default: 0] += 1
        }
        var cells = MatrixOwner.allCases.map { ($0, MatrixContext.mainTopLevel, "mainTopLevel") }
        for mainOwner in [MatrixOwner.main, .mainByDefault] {
            cells += [MatrixContext.nestedLibrarySync, .nestedRawSync, .lentChain, .concurrentPerform].map {
                (mainOwner, $0, "\($0.rawValue)@topLevel")
            }
        }
        for (owner, context, probeName) in cells {
            guard case .expect(let expected) = matrixTable[owner]?[context] else {
                Issue.record("no expected answer for \(owner) × \(context)")
                continue
            }
            let answers = observed["\(owner.rawValue) \(probeName)"] ?? [:]
            if ProcessInfo.processInfo.environment["MATRIX_SUMMARY"] != nil {
                print("matrix \(owner.rawValue) × \(probeName) (probe): expected \(expected), observed \(answers)")
            }
            if context == .concurrentPerform {
                // Repetitions whose iterations all ran on the main thread were left out above.
                #expect(answers.keys.count == 1 && answers[expected] != nil, "\(owner) × \(probeName): observed \(answers)")
            } else {
                #expect(answers == [expected: matrixRepetitions], "\(owner) × \(probeName): expected \(expected), observed \(answers)")
            }
        }
    }

    /// Every handler level on one representative violating cell (a tree's object used from a global
    /// queue, three times), through `SCHEDULABLE_CONFINEMENT` as a user sets it: what each level does is
    /// what the ConfinementLevel documentation says. (PolicyTests covers the parsing, per-type and
    /// per-member levels, and the handler's own counting; this is the end-to-end path of a real access.)
    @Test(.exitTest, .enabled(if: ConfinementSystem.debugChecksCompiledIn), arguments: ConfinementLevel.allCases)
    func handlerLevelOnAViolatingCell(_ level: ConfinementLevel) async {
        let expectation: ExitTest.Condition = level == .trap ? .failure : .success
        let setting = level.rawValue   // an exit test captures Codable values only
        await #expect(processExitsWith: expectation, observing: [\.standardErrorContent]) { [setting = setting as String] in
            setenv("SCHEDULABLE_CONFINEMENT", setting, 1)
            // The observe level writes its file at exit: into a directory of this child's own, never into
            // the package.
            setenv(ConfinementObservations.directoryEnvironmentVariable, NSTemporaryDirectory() + "schedulable-matrix-\(getpid())", 1)
            let owner = SerialQueueScheduler(label: "exit.matrix.level")
            let subject = MatrixSubject(Confinement(owner: owner))
            subject.confinement.endConstruction()
            for _ in 0..<3 {
                // The same call site each time, on a global queue: reported every time it is checked.
                DispatchQueue.global().sync { _ = subject.access() }
            }
        }.map { result in
            let stderr = standardErrorText(result)
            let fullReports = stderr.components(separatedBy: "MatrixSubject.access() used outside its owner\n").count - 1
            let repeatLines = stderr.components(separatedBy: "used outside its owner again").count - 1
            switch level {
            case .off:
                #expect(fullReports == 0 && repeatLines == 0, "stderr: \(stderr)")
            case .observe:
                // Recorded, not printed (ObservationTests reads what is recorded).
                #expect(fullReports == 0 && repeatLines == 0, "stderr: \(stderr)")
            case .warnOnce:
                // The first report in full, then a line at each doubling of the count (2).
                #expect(fullReports == 1 && repeatLines == 1, "stderr: \(stderr)")
            case .warn, .failTest:
                // fail-test outside a test's handler scope prints every time, as warn does.
                #expect(fullReports == 3 && repeatLines == 0, "stderr: \(stderr)")
            case .trap:
                #expect(fullReports == 1, "stderr: \(stderr)")
                #expect(stderr.contains("expected owner:  queue \"exit.matrix.level\""))
            }
        }
    }

    /// One repetition: a new object, one access in `context`; the answer (`nil`: a concurrentPerform
    /// that ran every iteration on the calling thread), and for concurrentPerform how many iterations
    /// ran off the calling thread.
    private static func runOnce(_ context: MatrixContext, _ fixture: MatrixOwnerFixture) async -> (MatrixAnswer?, Int) {
        let recorder = ViolationRecorder()
        switch context {
        case .initializerOnAnotherThread:
            let sink = LockedList<Bool>()
            await onNewPlainThread {
                let subject = withConfinementViolationHandler(recorder) {
                    MatrixSubject(fixture.makeConfinement(), usedInInitializerInto: sink)
                }
                withExtendedLifetime(subject) {}
            }
            return (MatrixAnswer.judge(queries: sink.elements, reports: recorder.count), 0)

        case .deinitOnAnotherThread:
            let sink = LockedList<MatrixDeinitAccess>()
            let slot = LockedValue<MatrixSubject?>(nil)
            await Self.settle(into: slot, fixture, recorder: recorder, deinitSink: sink)
            let releasingThread = await Self.releaseLastReference(from: slot)
            let accesses = sink.elements
            guard accesses.count == 1, accesses[0].thread == releasingThread else {
                return (.inconsistent("deinit ran \(accesses.count) times, not on the releasing thread"), 0)
            }
            return (MatrixAnswer.judge(queries: [accesses[0].isolated], reports: recorder.count, isDeinit: true), 0)

        case .concurrentPerform:
            let subject = await fixture.makeSettledSubject(recorder: recorder)
            let iterations = await fixture.onOwner { () -> [MatrixIteration] in
                let caller = csched_os_thread_id()
                let seen = LockedList<MatrixIteration>()
                DispatchQueue.concurrentPerform(iterations: 8) { _ in
                    seen.append(MatrixIteration(onCaller: csched_os_thread_id() == caller, isolated: subject.access()))
                    // Keeps the iteration busy a moment, so that libdispatch spreads the others.
                    _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .microseconds(300))
                }
                return seen.elements
            }
            let offCaller = iterations.filter { !$0.onCaller }
            if iterations.contains(where: { $0.onCaller && !$0.isolated }) {
                return (.inconsistent("an iteration on the calling thread (the owner's work) was refused"), offCaller.count)
            }
            // Iterations on the calling thread passed without a report; the rest are the cell.
            if offCaller.isEmpty {
                return (recorder.count == 0 ? nil : .inconsistent("reports with every iteration on the caller"), 0)
            }
            return (MatrixAnswer.judge(queries: offCaller.map(\.isolated), reports: recorder.count), offCaller.count)

        default:
            let subject = await fixture.makeSettledSubject(recorder: recorder)
            let query = await Self.access(subject, in: context, fixture)
            return (MatrixAnswer.judge(queries: [query], reports: recorder.count), 0)
        }
    }

    /// Runs `subject.access()` in one of the contexts that need nothing but a settled object.
    private static func access(
        _ subject: MatrixSubject, in context: MatrixContext, _ fixture: MatrixOwnerFixture
    ) async -> Bool {
        let access: @Sendable () -> Bool = { subject.access() }
        switch context {
        case .ownerWork:
            return await fixture.onOwner(access)
        case .rawAsyncOnOwnerQueue:
            return await onRawQueue(fixture.queue!, access)
        case .branchBelow:
            return await onScheduler(fixture.branchBelow!, access)
        case .parent:
            return await onScheduler(fixture.parent!, access)
        case .sibling:
            return await onScheduler(fixture.sibling!, access)
        case .otherScheduler:
            return await onScheduler(fixture.other, access)
        case .nestedLibrarySync:
            let other = fixture.other
            return await fixture.onOwner { other.sync(access) }
        case .nestedRawSync:
            let raw = DispatchQueue(label: "matrix.raw")
            return await fixture.onOwner { raw.sync(execute: access) }
        case .nestedRawSyncInRawWork:
            let raw = DispatchQueue(label: "matrix.raw")
            return await onRawQueue(fixture.queue!) { raw.sync(execute: access) }
        case .lentChain:
            let lender = fixture.lender
            return await fixture.onOwner { lender.sync(access) }
        case .task:
            return await Task.detached(operation: access).value
        case .globalQueue:
            return await onRawQueue(.global(), access)
        case .plainThread:
            return await onNewPlainThread(access)
        case .mainQueueUnderDispatchMain:
            return await onRawQueue(.main, access)
        case .concurrentPerform, .mainTopLevel, .initializerOnAnotherThread, .deinitOnAnotherThread:
            preconditionFailure("\(context) is run by runOnce or the main probe")
        }
    }

    /// Puts a settled object in `slot`; once this returns, the slot holds its only reference.
    private static func settle(
        into slot: LockedValue<MatrixSubject?>, _ fixture: MatrixOwnerFixture, recorder: ViolationRecorder,
        deinitSink: LockedList<MatrixDeinitAccess>
    ) async {
        let subject = await fixture.makeSettledSubject(recorder: recorder, deinitSink: deinitSink)
        slot.withLock { $0 = subject }
    }

    /// Takes the last reference out of `slot` on a new plain thread and releases it there; returns that
    /// thread's id.
    private static func releaseLastReference(from slot: LockedValue<MatrixSubject?>) async -> UInt64 {
        await onNewPlainThread {
            let taken = slot.withLock { slot -> MatrixSubject? in
                defer { slot = nil }
                return slot
            }
            withExtendedLifetime(taken) {}
            return csched_os_thread_id()
        }
    }
}
