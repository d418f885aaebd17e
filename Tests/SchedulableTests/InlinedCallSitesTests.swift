#if os(Linux)
import Foundation
@testable import Schedulable
import Testing

/// The DWARF reader that finds a report's access site where the `Runtime` module's inlined-frame lookup
/// misses it (`InlinedCallSites`). Where it finds the site is asserted by `ReportContentTests` in
/// optimized builds (`BadAccess.readUnread`: a property's own getter inlined into it); here, that it
/// answers nothing, without reading out of bounds, for what is not an ELF image with such a call.
@Suite("Inlined call sites")
struct InlinedCallSitesTests {
    @Test func aMissingFileHasNoSites() {
        #expect(InlinedCallSites.sites(inImageAt: "/nonexistent/image", address: 0x1000).isEmpty)
    }

    @Test func aFileThatIsNotAnElfImageHasNoSites() throws {
        let path = NSTemporaryDirectory() + "inlined-call-sites-\(getpid()).txt"
        try String(repeating: "not an image\n", count: 20).write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(InlinedCallSites.sites(inImageAt: path, address: 0x10).isEmpty)
    }

    @Test func anAddressOutsideEveryUnitOfThisImageHasNoSites() {
        // Address 0 is in no compile unit's ranges: every unit is read and left.
        #expect(InlinedCallSites.sites(inImageAt: "/proc/self/exe", address: 0).isEmpty)
    }
}
#endif
