/// Which frames of a stack are the library's, the Swift runtime's or libdispatch's, and which is the
/// first of the code that made the access.
enum StackFrameClassifier {
    /// The index of the first frame outside this library, the standard library and runtime, libdispatch and
    /// the system's thread start, that is not a thunk and, for an access to `property`, not that
    /// property's own accessor.
    ///
    /// A wrapped property's accessor is the compiler's: it is written at the declaration, and it is the
    /// first code above the wrapper. It is skipped by name in any type (a property inherited from a
    /// superclass is `Base.started.setter`), and the first accessor above the library is skipped
    /// whatever its name (a property renamed with `name:` reports under the given name). A later
    /// accessor of another property is the user's: a computed property that made the access.
    ///
    /// With `keepingWitnessThunks`, a protocol witness thunk of the user's module is a user frame: where
    /// Swift checks a `@preconcurrency` witness's isolation, the thunk is the code that checks.
    static func firstUserFrame(in frames: [CallStack.Frame], property: String?, keepingWitnessThunks: Bool = false) -> Int? {
        var skippedTheFirstAccessor = false
        return frames.firstIndex { frame in
            if isLibraryOrSystem(frame) { return false }
            if frame.isThunk, !(keepingWitnessThunks && isWitnessThunk(frame)) { return false }
            guard let property, let accessed = accessedProperty(frame) else { return true }
            // Accessors of the property itself (getter, then `_modify`, …) are all the compiler's.
            if accessed == property {
                skippedTheFirstAccessor = true
                return false
            }
            defer { skippedTheFirstAccessor = true }
            return skippedTheFirstAccessor
        }
    }

    /// Whether the frame belongs to code that is not the user's — or is unknown (no symbol, no image).
    static func isLibraryOrSystem(_ frame: CallStack.Frame) -> Bool {
        if let image = frame.image, systemImagePrefixes.contains(where: image.hasPrefix) { return true }
        guard let raw = frame.rawName else { return true }
        if let module = CallStack.swiftModule(ofMangled: raw) { return libraryModules.contains(module) }
        if isMangledSwift(raw) { return true }  // a standard-library type, a thunk: not the user's
        return systemCNames.contains(raw) || libraryCPrefixes.contains(where: raw.hasPrefix)
    }

    /// Whether the frame is where the process or a thread began (`_start`, `__libc_start_main`,
    /// `start_thread`, `clone3`): the unwinder reaches them, and a report has nothing to say with them.
    static func isEntry(_ frame: CallStack.Frame) -> Bool {
        guard let raw = frame.rawName else { return false }
        let name = raw.split(separator: "@").first.map(String.init) ?? raw
        return systemCNames.contains(name) || entryPrefixes.contains(where: name.hasPrefix)
    }

    private static let entryPrefixes = ["__libc_start", "__GI___clone", "__clone"]

    /// The property whose accessor the frame is (`UploadQueue.isPaused.setter` → `isPaused`), or `nil`
    /// when the frame is not a property accessor.
    static func accessedProperty(_ frame: CallStack.Frame) -> String? {
        guard let fullName = frame.name else { return nil }
        var name = Substring(fullName)
        // An optimized build names a generic type's accessor as its specialization (`specialized
        // Box.x.modify`): the property is the same, so the access site is the frame after it.
        while let prefix = specializationPrefixes.first(where: name.hasPrefix) { name = name.dropFirst(prefix.count) }
        // `Q.x.setter`, `App.UploadQueue.isPaused.modify : Swift.Int`, `Box<A>.x.getter`.
        let symbol = name.prefix { $0 != " " && $0 != "(" }
        let components = symbol.split(separator: ".")
        guard components.count >= 3, accessorNames.contains(String(components[components.count - 1])) else { return nil }
        return String(components[components.count - 2])
    }

    /// What the `Runtime`'s short demangled names put before a specialized or merged function's name.
    private static let specializationPrefixes = ["specialized ", "merged "]

    /// What a report calls top-level code (a `main.swift`'s statements), which has no name of its own.
    static let topLevelCode = "top-level code"

    /// The function a report names for the frame, and the Swift module its file is in: the demangled
    /// name, except where that names top-level code without saying so.
    ///
    /// A closure in top-level code has the module as its context, which the short demangled form leaves
    /// out (`closure #9 in `): it becomes `closure #9 in top-level code`. Top-level code itself is the
    /// C-named entry point Swift emits for it: `main`, or `<Module>_main` in SwiftPM's executables (so
    /// that their tests can link them); told from C's by its `.swift` file (`main.swift` for the
    /// renamed one, as a `@_cdecl` function may end in `_main`), it becomes `top-level code`. Words
    /// rather than the file's name, which the frame's location already gives, and which a frame
    /// without debug information lacks.
    static func reportName(of frame: CallStack.Frame) -> (function: String, module: String?) {
        let module = frame.rawName.flatMap(CallStack.swiftModule(ofMangled:))
        guard let name = frame.name ?? frame.rawName else { return ("0x" + String(frame.address, radix: 16), module) }
        if name.hasSuffix(" in ") { return (name + topLevelCode, module) }
        if let raw = frame.rawName, let path = frame.path {
            let file = CallStack.fileName(of: path)
            if raw == "main" && file.hasSuffix(".swift") { return (topLevelCode, nil) }
            if raw.hasSuffix("_main"), file == "main.swift", raw.count > "_main".count {
                return (topLevelCode, String(raw.dropLast("_main".count)))
            }
        }
        return (name, module)
    }

    private static let accessorNames: Set<String> = [
        "getter", "setter", "modify", "_modify", "read", "_read", "unsafeAddressor", "unsafeMutableAddressor",
        "didset", "willset", "modify2", "read2", "yielding",
    ]
    private static let libraryModules: Set<String> = [
        "Schedulable", "SchedulableTesting", "Swift", "_Concurrency", "Dispatch", "Runtime", "_StringProcessing",
        "SwiftOnoneSupport",
    ]
    private static let systemImagePrefixes = [
        "libswift", "libdispatch", "libBlocksRuntime", "libc.so", "libc-", "libpthread", "ld-linux", "ld-musl",
        "libstdc++", "libgcc_s", "libsystem_", "libdyld", "dyld", "libobjc",
    ]
    /// C symbols of the library, the runtimes and the sanitizers' interceptors (a ThreadSanitizer build
    /// links its runtime into the executable, and `backtrace` itself is intercepted there).
    private static let libraryCPrefixes = [
        "csched_", "swift_", "_swift_", "swift::", "__swift", "dispatch_", "_dispatch_", "__libc_", "pthread_",
        "_pthread_", "__interceptor_", "___interceptor_", "__tsan", "__asan", "__ubsan", "__sanitizer",
    ]
    private static let systemCNames: Set<String> = ["start_thread", "clone", "clone3", "__clone", "_start", "thread_start"]

    /// Whether the frame is a protocol witness thunk (its mangled name ends in `TW`).
    static func isWitnessThunk(_ frame: CallStack.Frame) -> Bool {
        guard let raw = frame.rawName else { return false }
        return isMangledSwift(raw) && raw.hasSuffix("TW")
    }

    private static func isMangledSwift(_ name: String) -> Bool {
        let name = name.hasPrefix("_") ? name.dropFirst() : Substring(name)
        return name.hasPrefix("$s") || name.hasPrefix("$S")
    }
}
