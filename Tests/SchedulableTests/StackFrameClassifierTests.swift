import Dispatch
@testable import Schedulable
import Testing

/// Which frame of a stack is the access site, and the fallback capture (`backtrace(3)` / `dladdr`) that
/// Apple OS versions before the 26 releases use, run here on Linux.
@Suite("Stack frames")
struct StackFrameClassifierTests {
    private func frame(_ raw: String?, name: String? = nil, image: String? = "App") -> CallStack.Frame {
        CallStack.Frame(address: 1, rawName: raw, name: name, image: image)
    }

    @Test func mangledSymbolsNameTheirModule() {
        #expect(CallStack.swiftModule(ofMangled: "$s3App5touchyyAA1QCF") == "App")
        #expect(CallStack.swiftModule(ofMangled: "_$s11Schedulable11ConfinementC") == "Schedulable")
        #expect(CallStack.swiftModule(ofMangled: "$sSa6appendyyxnF") == nil)
        #expect(CallStack.swiftModule(ofMangled: "$ss5printyyypd_SSSStF") == "Swift")
        #expect(CallStack.swiftModule(ofMangled: "main") == nil)
    }

    /// Top-level code has no name of its own: its closures demangle to `closure #9 in ` (their context,
    /// the module, is left out of the short form) and it is itself the entry point `main`
    /// (`<Module>_main` in SwiftPM's executables). Reports say `top-level code`.
    @Test func topLevelCodeAndItsClosuresAreNamedSo() {
        func reported(_ raw: String?, _ name: String?, path: String? = nil) -> ConfinementViolation.StackFrame {
            CapturedAccess.reportFrame(CallStack.Frame(
                address: 0x10, rawName: raw, name: name, image: "App", path: path, line: path.map { _ in 9 }
            ))
        }
        let main = "/src/Sources/App/main.swift"
        let closure = reported("$s3AppyycfU8_", "closure #9 in ", path: main)
        #expect(closure.function == "closure #9 in top-level code")
        #expect(closure.description == "App/main.swift:9 in closure #9 in top-level code")
        #expect(reported("$s3AppyycfU_yycfU0_", "closure #2 in closure #1 in ").function == "closure #2 in closure #1 in top-level code")
        #expect(reported("$s3AppyycfU_", "implicit closure #1 in ").description == "implicit closure #1 in top-level code in App")

        let entry = reported("App_main", "App_main", path: main)
        #expect(entry.function == "top-level code")
        #expect(entry.description == "App/main.swift:9 in top-level code")  // the module from the symbol
        #expect(reported("main", "main", path: "/tmp/script.swift").description == "script.swift:9 in top-level code")

        // Named functions keep their names; so do C's `main`, a `@_cdecl` function ending in `_main`,
        // and a `main` without debug information, which could be either.
        #expect(reported("$s3App5touchyyF", "touch()", path: main).function == "touch()")
        #expect(reported("$s3App4loadyyFyycfU_", "closure #1 in load()").function == "closure #1 in load()")
        #expect(reported("main", "main", path: "/src/Sources/CTool/main.c").function == "main")
        #expect(reported("worker_main", "worker_main", path: "/src/Sources/App/Worker.swift").function == "worker_main")
        #expect(reported("main", "main").function == "main")
        #expect(reported(nil, nil).function == "0x10")
    }

    @Test func theFirstUserFrameSkipsTheLibraryTheRuntimeDispatchThunksAndThePropertysAccessors() {
        let frames = [
            frame("$s11Schedulable11ConfinementC20_checkFailedFastPath"),
            frame("swift_task_switch", image: "libswift_Concurrency.so"),
            frame("$s3App11UploadQueueC8isPausedSbvs", name: "UploadQueue.isPaused.setter"),
            frame("$sIeg_IegH_TR", name: "thunk"),
            frame("$sSa6appendyyxnF", name: "Array.append(_:)"),
            frame("$s3App18touchFromElsewhereyyAA11UploadQueueCF", name: "touchFromElsewhere(_:)"),
            frame("_dispatch_client_callout", image: "libdispatch.so"),
        ]
        #expect(StackFrameClassifier.firstUserFrame(in: frames, property: "isPaused") == 5)
        // A method guard: accessors are not skipped.
        #expect(StackFrameClassifier.firstUserFrame(in: frames, property: nil) == 2)
        // A frame with no symbol is not taken for the user's (a stripped binary has no access site).
        #expect(StackFrameClassifier.firstUserFrame(in: [frame(nil)], property: nil) == nil)
        // C code of the user's, and top-level code (`main`), is.
        #expect(StackFrameClassifier.firstUserFrame(in: [frame("csched_current"), frame("main")], property: nil) == 1)
    }

    /// The wrapped property's own accessor is skipped when it is inherited (another type's name) or
    /// renamed with `name:` (another property's name); a computed property that made the access is the
    /// user's code.
    @Test func theWrappedPropertysAccessorIsSkippedInheritedRenamedOrUnderAComputedOne() {
        let library = frame("$s11Schedulable8ConfinedV9subscript")
        let caller = frame("$s3App5touchyyF", name: "touch()")
        let inherited = frame("$s3App11BaseServiceC7startedSbvs", name: "BaseService.started.setter")
        #expect(StackFrameClassifier.firstUserFrame(in: [library, inherited, caller], property: "started") == 2)
        let renamed = frame("$s3App11UploadQueueC8isPausedSbvs", name: "UploadQueue.isPaused.setter")
        #expect(StackFrameClassifier.firstUserFrame(in: [library, renamed, caller], property: "paused") == 2)
        let wrapped = frame("$s3App11UploadQueueC7pendingSaySSGvs", name: "UploadQueue.pending.setter")
        let computed = frame("$s3App11UploadQueueC5resetSbvs", name: "UploadQueue.reset.setter")
        #expect(StackFrameClassifier.firstUserFrame(in: [library, wrapped, computed, caller], property: "pending") == 2)
    }

    /// The frames where the process or a thread began are left out of a report's stack.
    @Test func processAndThreadEntriesAreRecognized() {
        for raw in ["_start", "__libc_start_call_main", "__libc_start_main@GLIBC_2.2.5", "start_thread", "__GI___clone3", "clone3", "thread_start"] {
            #expect(StackFrameClassifier.isEntry(frame(raw)), "\(raw)")
        }
        #expect(!StackFrameClassifier.isEntry(frame("main")))
        #expect(!StackFrameClassifier.isEntry(frame("$s3App5touchyyAA1QCF")))
    }

    /// A ThreadSanitizer build links the sanitizer's runtime into the executable and intercepts
    /// `backtrace` itself: those frames are not the user's.
    @Test func sanitizerInterceptorsAreNotTheAccessSite() {
        let frames = [
            frame("__interceptor_backtrace"), frame("___interceptor_backtrace"), frame("__tsan_func_entry"),
            frame("csched_backtrace"), frame("$s3App5touchyyAA1QCF", name: "touch(_:)"),
        ]
        #expect(StackFrameClassifier.firstUserFrame(in: frames, property: nil) == 4)
    }

    @Test func accessorsAreRecognizedInTheShortAndTheLongDemangledForms() {
        for name in ["UploadQueue.isPaused.modify", "App.UploadQueue.isPaused.getter : Swift.Bool", "Box<A>.isPaused.setter", "specialized Box.isPaused.modify"] {
            #expect(StackFrameClassifier.accessedProperty(frame("x", name: name)) == "isPaused", "\(name)")
        }
        #expect(StackFrameClassifier.accessedProperty(frame("x", name: "UploadQueue.isPaused(_:)")) == nil)
        #expect(StackFrameClassifier.accessedProperty(frame("x", name: "touch()")) == nil)
        #expect(StackFrameClassifier.accessedProperty(frame("x", name: "specialized touch()")) == nil)
    }

    @Test func theFallbackCaptureNamesTheSystemImages() {
        // `dladdr` on the return addresses `backtrace` gave: the images they are in. A Linux
        // executable exports no symbols (no --export-dynamic), so its own frames stay unnamed here and
        // the fallback finds no access site in it; on Darwin, `dladdr` also names them.
        let stack = DispatchQueue(label: "test.fallback").sync { CallStack.capture(limit: 32) }
        let frames = stack.frames(fallback: true)
        #expect(frames.count > 3)
        #expect(frames.contains { $0.image == dispatchImageName })
        #expect(frames.allSatisfy { $0.isInlined == false && $0.path == nil })
    }
}

@Suite("Macro expansions are placed where the macro was used")
struct MacroExpansionSourceTests {
    @Test func theOriginalRangeIsReadFromTheLastMarker() throws {
        let text = """
            Testing.__checkBinaryOperation(queue.count, { $0 == $1() }, 0)

            // original-source-range: /work/App/Tests/AppTests/Queue Tests.swift:48:17-48:66
            """
        let found = try #require(MacroExpansionSources.parse(text))
        #expect(found.path == "/work/App/Tests/AppTests/Queue Tests.swift")
        #expect(found.line == 48)
        #expect(found.column == 17)
    }

    @Test func aFileWithoutTheMarkerKeepsItsPlace() {
        #expect(MacroExpansionSources.parse("let x = 1\n// a comment\n") == nil)
        #expect(MacroExpansionSources.parse("// original-source-range: nonsense") == nil)
        #expect(MacroExpansionSources.originalLocation(of: "/nonexistent/@__swiftmacro_x.swift") == nil)
    }
}

/// A stack is symbolicated from the addresses not seen before; the frames of the others are reused.
@Suite("Symbolication reuses what it found")
struct SymbolicationReuseTests {
    @inline(never)
    private static func capture(_ depthMarker: Int) -> CallStack {
        // Two call sites of the same caller: the stacks share every frame but the innermost one or two.
        depthMarker == 0 ? CallStack.capture(limit: 32) : CallStack.capture(limit: 32)
    }

    #if os(Linux) && canImport(Runtime)
    // Linux, where the `Runtime` module symbolicates on every supported toolchain (Apple: the 26 releases).
    @Test(.enabled(if: PlatformInternals.runtimeBacktraceAllowed))
    func aNewStackGivesTheFramesTheWholeStackGives() throws {
        let first = Self.capture(0)
        _ = first.frames()
        let second = Self.capture(1)
        let reused = second.frames()
        let whole = RuntimeImages.symbolicate(try #require(RuntimeBacktraceReader.backtrace(of: second.addresses)))
        // Names and addresses: `frames()` also places macro expansions and autoclosures, which
        // change lines only.
        #expect(reused.map(\.address) == whole.map(\.address))
        #expect(reused.map(\.name) == whole.map(\.name))
        #expect(Set(first.addresses).intersection(second.addresses).count > second.addresses.count / 2)
    }
    #endif
}

/// libdispatch's image as a frame names it: `libdispatch.so` (swift-corelibs-libdispatch), or
/// `libdispatch.dylib` on Apple's platforms.
let dispatchImageName: String = {
    #if canImport(Darwin)
    return "libdispatch.dylib"
    #else
    return "libdispatch.so"
    #endif
}()
