import Testing
@testable import ScheduleAuditCore

/// Swift accepts a declaration's modifiers in any order, so every scan must read every order alike:
/// `nonisolated(unsafe) private(set) var` is the same claim as `private(set) nonisolated(unsafe) var`
/// (the oracle, `Oracle/`, holds the member scan to swift-syntax's parser on a large corpus).
@Suite("front end: modifiers in any order")
struct ModifierOrderTests {
    /// Every order of three modifiers, two of them with an argument.
    static let orders: [[String]] = {
        let modifiers = ["nonisolated(unsafe)", "private(set)", "static"]
        return modifiers.flatMap { first in
            modifiers.filter { $0 != first }.flatMap { second in
                modifiers.filter { $0 != first && $0 != second }.map { [first, second, $0] }
            }
        }
    }()

    @Test(arguments: orders)
    func claimsFindNonisolatedUnsafeInEveryOrder(order: [String]) {
        let source = """
            final class Cache {}
            enum Globals {
                \(order.joined(separator: " ")) var cache = Cache()
            }
            """
        let claims = ClaimScan.claims(in: [("Globals.swift", source)]).filter { $0.kind == .nonisolatedUnsafe }
        #expect(claims.count == 1)
        #expect(claims.first?.message.contains("nonisolated(unsafe) var 'cache'") == true)
        #expect(claims.first?.observedType?.qualified == "Cache")
    }

    @Test(arguments: orders)
    func membersReadEveryModifierInEveryOrder(order: [String]) throws {
        let file = SourceFile(path: "Globals.swift", text: """
            enum Globals {
                @MainActor \(order.joined(separator: " ")) var cache = 0
                func after() {}
            }
            """)
        let type = try #require(file.typeDeclarations().first)
        let members = file.members(open: type.openBrace, close: type.closeBrace)
        #expect(members.map(\.kind) == [.variable, .function])
        #expect(members.first?.modifiers.sorted() == ["nonisolated(unsafe)", "private(set)", "static"])
        #expect(members.first?.attributes == ["MainActor"])
        #expect(members.first.map { file.tokens[$0.nameToken ?? 0].text } == "cache")
    }
}
