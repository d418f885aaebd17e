import Testing

@testable import Schedulable

// The seed article's demo program, rebuilt on the library: business logic (an Assembly with a
// Printer and its PrintOptionsProvider) lives on a background thread scheduler; the "main loop"
// reaches it only through events. Console output goes to a sink so the test can read it.

/// Where the printer writes (the console, in the article).
private final class OutputSink: Sendable {
    private let lines = LockedValue<[String]>([])
    func write(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// Configures the printer. Mutable, so it is confined to the background scheduler.
private final class PrintOptionsProvider: ConfinedObject {
    let confinement: Confinement
    @Confined var richFormatEnabled = false

    init(scheduler: some SerialScheduler) {
        confinement = Confinement(owner: scheduler)
    }
}

/// Prints what it is fed. Calls its options provider directly: they share a scheduler (the
/// pattern's first rule), and the provider's checks confirm it.
private final class Printer: ConfinedObject {
    let confinement: Confinement
    private let optionsProvider: PrintOptionsProvider
    private let output: OutputSink

    init(optionsProvider: PrintOptionsProvider, output: OutputSink, scheduler: some SerialScheduler) {
        confinement = Confinement(owner: scheduler)
        self.optionsProvider = optionsProvider
        self.output = output
    }

    func doWork(what: String) {
        preconditionIsolated()
        if optionsProvider.richFormatEnabled {
            output.write("\(CurrentExecution.description): out \(what)")
        } else {
            output.write("out \(what)")
        }
    }
}

/// Creates the business-logic services and the scheduler they live on.
private final class Assembly: Sendable {
    let backgroundScheduler = ThreadScheduler(label: "com.example.background")
    let printOptionsProvider: SchedulableObject<PrintOptionsProvider>
    let printer: SchedulableObject<Printer>

    init(output: OutputSink) {
        // The printer shares its options provider, so the two are built together on the background
        // scheduler and wrapped there; only the (Sendable) wrappers come back.
        let scheduler = backgroundScheduler
        (printOptionsProvider, printer) = scheduler.sync {
            let optionsProvider = PrintOptionsProvider(scheduler: scheduler)
            let printer = Printer(optionsProvider: optionsProvider, output: output, scheduler: scheduler)
            return (
                SchedulableObject(optionsProvider, onCurrent: scheduler),
                SchedulableObject(printer, onCurrent: scheduler)
            )
        }
    }
}

@Suite("Example: the SchedulableObject demo program")
struct PrinterExampleTests {
    private static let input = ["hello", "schedulable", "world", "q", "ignored"]

    @Test func mainLoopReachesBusinessLogicOnlyThroughEvents() {
        let output = OutputSink()
        let assembly = Assembly(output: output)
        for (index, value) in Self.input.enumerated() {
            if value == "q" {
                // Unlike the article's dispose(), shutdown runs every event already sent.
                assembly.backgroundScheduler.shutdown()
                break
            }
            let rich = index % 2 == 1
            assembly.printOptionsProvider.schedule { $0.richFormatEnabled = rich }
            assembly.printer.schedule { $0.doWork(what: value) }
        }
        #expect(output.all == [
            "out hello",
            "thread scheduler \"com.example.background\" (thread \(assembly.backgroundScheduler.osThreadID) \"com.example.background\"): out schedulable",
            "out world",
        ])
    }

    @Test func oneEventCanUseBothServicesDirectly() {
        // The article's simplification: one event on the background scheduler, direct calls inside.
        let output = OutputSink()
        let assembly = Assembly(output: output)
        for value in ["a", "b"] {
            assembly.backgroundScheduler.schedule {
                assembly.printOptionsProvider.object.richFormatEnabled = false
                assembly.printer.object.doWork(what: value)
            }
        }
        assembly.backgroundScheduler.shutdown()
        #expect(output.all == ["out a", "out b"])
    }

    @Test(.exitTest) func callingTheServiceFromTheMainLoopDirectlyIsCaught() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let assembly = Assembly(output: OutputSink())
            assembly.printer.object.doWork(what: "from the wrong thread")
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("expected owner:  thread scheduler \"com.example.background\""))
    }
}
