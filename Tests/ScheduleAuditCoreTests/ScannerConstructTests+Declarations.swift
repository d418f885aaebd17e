import Testing
@testable import ScheduleAuditCore

/// Declarations the oracle's second pass found read apart from the parser (in swift-nio,
/// swift-collections, swift-syntax and Vapor: Oracle/known-disagreements.txt), one test each.
extension ScannerConstructTests {
    @Test func aFreestandingMacroIsAMember() throws {
        let (file, members) = try Self.members("""
            struct Stack {
                #if arch(x86_64)
                var contents: (Int, Int)
                #else
                #error("Unexpected pointer bit width")
                #endif
                #warning(
                    "over two lines"
                )
                var after = 0
            }
            """)
        #expect(members.map(\.kind) == [.variable, .other, .other, .variable])
        #expect(members.map { file.tokens[$0.start].text } == ["var", "#error", "#warning", "var"])
        #expect(members.map { file.tokens[$0.end - 1].text } == [")", ")", ")", "0"])
    }

    @Test func extensionsOfGenericAndOptionalTypesAreNamed() throws {
        let file = SourceFile(path: "A.swift", text: """
            extension Rope<Chunk>.Builder {}
            extension UInt8? {
                static func ~= (s: Self, i: Int) -> Bool { true }
            }
            extension [Row]? {}
            """)
        let types = file.typeDeclarations()
        #expect(types.map(\.qualifiedName) == ["Rope.Builder", "UInt8?", "[Row]?"])
        #expect(types.map(\.name) == ["Builder", "UInt8?", "[Row]?"])
        let optional = try #require(types.dropFirst().first)
        #expect(file.members(open: optional.openBrace, close: optional.closeBrace).map { file.name(of: $0) } == ["~="])
    }

    @Test func everyAttributeOfAConformanceIsKept() throws {
        let file = SourceFile(path: "A.swift", text: "extension JSONEncoder: @retroactive @unchecked Sendable, Codable {}")
        let type = try #require(file.typeDeclarations().first)
        #expect(type.inheritedNames(in: file) == ["@retroactive @unchecked Sendable", "Codable"])
    }

    @Test func aLocalTypeAfterACaseLabelIsATypeAndAClassConstraintIsNot() throws {
        let file = SourceFile(path: "A.swift", text: """
            extension Parser {
                func parse() {
                    switch label {
                    case "visibility":
                        enum Level: TokenSpecSet {
                            case `private`
                        }
                    default: break
                    }
                }
            }
            protocol Legacy: class {}
            """)
        #expect(file.typeDeclarations().map(\.qualifiedName) == ["Parser", "Parser.Level", "Legacy"])
    }
}
