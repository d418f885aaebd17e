#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSchedulableContext

/// A protocol witness thunk's implementation: the function the user wrote, whose first line a failed
/// isolation check at the thunk's entry is placed at (a `@preconcurrency` conformance's witness).
///
/// The thunk has no line of its own. Its symbol names the implementation: the thunk of
/// `SettingsScreen.notifierDidFinish()` for `LegacyDelegate` demangles as `protocol witness for
/// Legacy.LegacyDelegate.notifierDidFinish() -> () in conformance App.SettingsScreen :
/// Legacy.LegacyDelegate in App`, and the implementation as `App.SettingsScreen.notifierDidFinish() ->
/// ()`. The implementation is found by that name in the image's symbol table (Linux, the library's ELF
/// reader); where it cannot be (another platform, a requirement spelled with `Self` or an associated
/// type, a generic conformance, a stripped image), the thunk's next direct call after the check is
/// taken as the implementation, which holds in an uninstrumented build but not under
/// ThreadSanitizer, whose calls stand between the check and the implementation's call.
package enum WitnessThunk {
    /// What the implementation of one thunk is called, and what its symbol must hold.
    package struct Implementation: Equatable, Sendable {
        /// The implementation's demangled name, as `swift_demangle` spells it.
        package var name: String
        /// The start every symbol of the conforming type's module has (`$s3App`): its candidates'.
        package var symbolPrefix: String
        /// The member's base name (`notifierDidFinish`, `value` of `value.getter`), which the
        /// implementation's symbol holds unless the mangler spelled a word of it as a substitution.
        package var baseName: String
    }

    /// The implementation of the thunk whose symbol is `rawName`, or `nil` when its name does not say.
    static func implementation(ofThunk rawName: String) -> Implementation? {
        guard let demangled = rawName.withCString({ csched_demangle($0) }) else { return nil }
        defer { free(demangled) }
        return implementation(ofThunk: rawName, demangled: String(cString: demangled))
    }

    /// ``implementation(ofThunk:)`` from the thunk's symbol and its demangled name.
    package static func implementation(ofThunk rawName: String, demangled: String) -> Implementation? {
        let text = Array(demangled.utf8)
        let lead = Array("protocol witness for ".utf8)
        guard text.starts(with: lead), let conformance = firstIndex(of: " in conformance ", in: text, from: lead.count),
              let module = CallStack.swiftModule(ofMangled: rawName), module != "Swift"
        else { return nil }
        let requirement = text[lead.count..<conformance]
        let afterConformance = conformance + " in conformance ".utf8.count
        // `T : P in M`: a generic conformance (`<A> T<A> : P`) names its implementation otherwise.
        guard text.count > afterConformance, text[afterConformance] != UInt8(ascii: "<"),
              let colon = firstIndex(of: " : ", in: text, from: afterConformance),
              let inModule = lastIndex(of: " in ", in: text, after: colon)
        else { return nil }
        let conformingType = text[afterConformance..<colon]
        let proto = Array(text[(colon + 3)..<inModule]) + [UInt8(ascii: ".")]
        // The requirement is the protocol's member (`P.member…`); a static one starts with `static `.
        guard requirement.starts(with: proto) else { return nil }
        let member = requirement.dropFirst(proto.count)
        let ends: Set<UInt8> = [UInt8(ascii: "("), UInt8(ascii: "."), UInt8(ascii: " "), UInt8(ascii: "<")]
        let base = member.prefix { !ends.contains($0) }
        guard !base.isEmpty else { return nil }
        let underscore = rawName.hasPrefix("_") ? "_" : ""
        return Implementation(
            name: String(decoding: conformingType + [UInt8(ascii: ".")] + member, as: UTF8.self),
            symbolPrefix: "\(underscore)$s\(module.utf8.count)\(module)",
            baseName: String(decoding: base, as: UTF8.self)
        )
    }

    /// Whether `candidate` (a symbol) is `implementation`'s: demangled, it is its name.
    static func isImplementation(_ candidate: String, of implementation: Implementation) -> Bool {
        guard let demangled = candidate.withCString({ csched_demangle($0) }) else { return false }
        defer { free(demangled) }
        return String(cString: demangled) == implementation.name
    }

    private static func firstIndex(of part: String, in text: [UInt8], from start: Int) -> Int? {
        let part = Array(part.utf8)
        guard text.count >= part.count, start <= text.count - part.count else { return nil }
        return (start...(text.count - part.count)).first { text[$0..<($0 + part.count)].elementsEqual(part) }
    }

    private static func lastIndex(of part: String, in text: [UInt8], after start: Int) -> Int? {
        let part = Array(part.utf8)
        guard text.count >= part.count, start < text.count - part.count else { return nil }
        return stride(from: text.count - part.count, to: start, by: -1).first {
            text[$0..<($0 + part.count)].elementsEqual(part)
        }
    }
}

/// The target of the direct call instruction at `address` (x86-64 `call rel32`, arm64 `bl`), or `nil`
/// for any other instruction or architecture. Reads the process's own code, which is mapped readable.
/// The fallback of ``WitnessThunk``: the call after a thunk's isolation check.
func directCallTarget(at address: UInt) -> UInt? {
    guard let code = UnsafeRawPointer(bitPattern: address) else { return nil }
    #if arch(x86_64)
    guard code.load(as: UInt8.self) == 0xE8 else { return nil }
    let offset = Int(Int32(littleEndian: code.loadUnaligned(fromByteOffset: 1, as: Int32.self)))
    return UInt(bitPattern: Int(bitPattern: address) &+ 5 &+ offset)
    #elseif arch(arm64)
    let word = UInt32(littleEndian: code.load(as: UInt32.self))
    guard word >> 26 == 0b100101 else { return nil }
    let offset = (Int(Int32(bitPattern: word << 6)) >> 6) * 4  // imm26, sign-extended, in words
    return UInt(bitPattern: Int(bitPattern: address) &+ offset)
    #else
    return nil
    #endif
}

extension CallStack {
    /// The module of a mangled Swift symbol whose first component is a module name (`$s3App5touch…` →
    /// `App`); `nil` for other symbols (C, the standard library's short forms, thunks).
    static func swiftModule(ofMangled name: String) -> String? {
        var rest = name.hasPrefix("_") ? name.dropFirst() : Substring(name)
        guard rest.hasPrefix("$s") || rest.hasPrefix("$S") else { return nil }
        rest = rest.dropFirst(2)
        if rest.first == "s" { return "Swift" }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard let length = Int(digits), length > 0, !digits.hasPrefix("0") else { return nil }
        let identifier = rest.dropFirst(digits.count).prefix(length)
        return identifier.count == length ? String(identifier) : nil
    }
}
