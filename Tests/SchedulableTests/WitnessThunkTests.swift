import Foundation
@testable import Schedulable
import Testing

/// A witness thunk's implementation, read from the thunk's symbol (`WitnessThunk`): the name its
/// demangled symbol gives, and on Linux the implementation found by that name in this test binary's
/// symbol table at its first line — what places a `@preconcurrency` witness's isolation failure
/// whatever code stands between the thunk's check and its call (ThreadSanitizer's).
@Suite("Witness thunks")
struct WitnessThunkTests {
    @Test func aMethodsThunkNamesItsImplementation() {
        let implementation = WitnessThunk.implementation(
            ofThunk: "$s3App14SettingsScreenC6Legacy0D8DelegateAadEP17notifierDidFinishyyFTW",
            demangled: "protocol witness for Legacy.LegacyDelegate.notifierDidFinish() -> () in conformance "
                + "App.SettingsScreen : Legacy.LegacyDelegate in App"
        )
        #expect(implementation == WitnessThunk.Implementation(
            name: "App.SettingsScreen.notifierDidFinish() -> ()", symbolPrefix: "$s3App", baseName: "notifierDidFinish"
        ))
    }

    @Test func aGettersThunkNamesItsImplementation() {
        let implementation = WitnessThunk.implementation(
            ofThunk: "$s3App5StoreVAA8ReadableA2aDP5countSivgTW",
            demangled: "protocol witness for App.Readable.count.getter : Swift.Int in conformance App.Store : "
                + "App.Readable in App"
        )
        #expect(implementation?.name == "App.Store.count.getter : Swift.Int")
        #expect(implementation?.baseName == "count")
    }

    /// Names that do not say which function is the implementation: no answer (the call after the
    /// check is the fallback).
    @Test func aThunkWhoseNameDoesNotSayHasNoImplementation() {
        let generic = "protocol witness for App.P.run() -> () in conformance <A> App.Box<A> : App.P in App"
        let staticMember = "protocol witness for static App.P.make() -> A in conformance App.S : App.P in App"
        let notAThunk = "App.SettingsScreen.notifierDidFinish() -> ()"
        for demangled in [generic, staticMember, notAThunk] {
            #expect(WitnessThunk.implementation(ofThunk: "$s3App1SVAA1PA2aDP3runyyFTW", demangled: demangled) == nil)
        }
    }

    #if os(Linux) && DEBUG
    /// Every witness thunk of `WitnessFixture` in this binary, found by its symbol, gives its
    /// implementation's first line. Debug builds only: an optimized build may inline an implementation
    /// into its thunk and keep no symbol of it (the call after the check is then the fallback).
    @Test func thisBinarysThunksFindTheirImplementationsFirstLine() throws {
        let path = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let image = try #require(InlinedCallSites.image(at: path))
        let thunks = image.functions(prefixed: "$s16SchedulableTests14WitnessFixtureV", holding: "").filter { $0.name.hasSuffix("TW") }
        #expect(thunks.count == 2, "\(thunks.map(\.name))")
        var lines: [Int] = []
        for thunk in thunks {
            let implementation = try #require(WitnessThunk.implementation(ofThunk: thunk.name))
            let found = try #require(InlinedCallSites.entryLine(of: implementation, inImageAt: path), "\(implementation)")
            #expect(found.path.hasSuffix("WitnessThunkTests.swift"))
            lines.append(found.line)
        }
        #expect(lines.sorted() == [WitnessFixture.methodLine, WitnessFixture.getterLine])
    }
    #endif
}

protocol WitnessFixtureRequirements {
    func fixtureRequirement() -> Int
    var fixtureValue: Int { get }
}

struct WitnessFixture: WitnessFixtureRequirements {
    static let methodLine = #line + 1
    func fixtureRequirement() -> Int {
        fixtureValue + 1
    }

    static let getterLine = #line + 1
    var fixtureValue: Int {
        2
    }
}
