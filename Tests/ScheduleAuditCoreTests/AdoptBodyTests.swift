import Testing
@testable import ScheduleAuditCore

/// `adopt`'s guard in bodies a token scan can misread: the guard goes first, `return` goes before an
/// expression the body returned implicitly, and a body that cannot take a statement first is refused
/// with a note (never edited into code that does not compile).
@Suite("adopt: exact edits in every kind of body")
struct AdoptBodyTests {
    /// The class `T` with `members` adopted, without its first two lines and its last.
    private func adoptedMembers(_ members: String) throws -> String {
        let indented = members.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
        let sources = try TemporarySources(["A.swift": "import Schedulable\nfinal class T {\n\(indented)\n}\n"])
        let lines = try sources.adopted("T").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[2] == "    let confinement = Confinement.observed()")
        return lines[3..<(lines.count - 2)].map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : String($0) }.joined(separator: "\n")
    }

    private func notes(_ members: String) throws -> [String] {
        let sources = try TemporarySources(["A.swift": "import Schedulable\nfinal class T {\n\(members)\n}\n"])
        return try sources.plan("T").notes.map(\.message)
    }

    @Test func aBodyWhoseClosureReturnsGetsAReturn() throws {
        // The issue's miss (`queue.sync { sent += 1; return sent }`, GRDB's `SerializedDatabase.sync`):
        // the closure's `return` is not the body's. (A body that is only the hop is an entry point and
        // gets no guard: see the last test.)
        #expect(try adoptedMembers("""
            func send() -> Int { lock.withLock { sent += 1; return sent } }
            func sent() -> Int { counter.map { value in return value + sent } ?? 0 }
            func sync<T>(_ body: (Int) throws -> T) rethrows -> T {
                try body(reading { db in
                    allows = true
                    return db
                })
            }
            """) == """
            func send() -> Int { assertIsolated(); return lock.withLock { sent += 1; return sent } }
            func sent() -> Int { assertIsolated(); return counter.map { value in return value + sent } ?? 0 }
            func sync<T>(_ body: (Int) throws -> T) rethrows -> T {
                assertIsolated()
                return try body(reading { db in
                    allows = true
                    return db
                })
            }
            """)
    }

    @Test func returnsInBlocksAndNestedFunctionsAreToldApart() throws {
        #expect(try adoptedMembers("""
            func a(_ x: Int?) -> Int {
                guard let x else { return 0 }
                return x
            }
            func b() -> Int {
                func helper() -> Int { return 1 }
                helper()
            }
            func c(_ x: Int) -> Int {
                switch x { case 0: return 1; default: return 2 }
            }
            """) == """
            func a(_ x: Int?) -> Int {
                assertIsolated()
                guard let x else { return 0 }
                return x
            }
            func b() -> Int {
                func helper() -> Int { return 1 }
                helper()
            }
            func c(_ x: Int) -> Int {
                assertIsolated()
                switch x { case 0: return 1; default: return 2 }
            }
            """)
        // `b` has two statements and no `return` of its own: it is not one expression, so it is refused.
        #expect(try notes("func b() -> Int {\n    func helper() -> Int { return 1 }\n    helper()\n}").contains {
            $0.hasPrefix("skipped 'b()': its body returns a value with no 'return' over several statements")
        })
    }

    @Test func anExpressionOverSeveralLinesIsOneStatement() throws {
        #expect(try adoptedMembers("""
            func names() -> [String] {
                rows
                    .filter { !$0.isEmpty }
                    .map { $0.uppercased() } +
                    extra ?? []
            }
            func flag() async throws -> Bool {
                try await check(
                    a: 1
                ) && !other
            }
            """) == """
            func names() -> [String] {
                assertIsolated()
                return rows
                    .filter { !$0.isEmpty }
                    .map { $0.uppercased() } +
                    extra ?? []
            }
            func flag() async throws -> Bool {
                assertIsolated()
                return try await check(
                    a: 1
                ) && !other
            }
            """)
    }

    @Test func regexLiteralsAndStringsHoldNoCode() throws {
        #expect(try adoptedMembers(##"""
            func a(_ s: String) -> Bool { s.contains(/\}return"{/) }
            func b(_ s: String) -> Bool { s.contains(#/ } return / "/#) }
            func c() -> String { #"} return \#(x) "# + """
                { return }
                """ }
            func d() -> Int { total / count / 2 }
            """##) == ##"""
            func a(_ s: String) -> Bool { assertIsolated(); return s.contains(/\}return"{/) }
            func b(_ s: String) -> Bool { assertIsolated(); return s.contains(#/ } return / "/#) }
            func c() -> String { assertIsolated(); return #"} return \#(x) "# + """
                { return }
                """ }
            func d() -> Int { assertIsolated(); return total / count / 2 }
            """##)
    }

    @Test func regexTokensAreLiteralsAndDivisionIsNot() {
        let tokens = SwiftTokenizer(source: "let r = /a{\"/; let q = x / y / z\nlet e = #/\n  } /\n/#\nlet f = 1").tokens
        #expect(tokens.filter { $0.kind == .string }.map(\.text) == [#"/a{"/"#, "#/\n  } /\n/#"])
        #expect(tokens.filter { $0.isPunctuation("/") }.count == 2)
        #expect(tokens.last?.text == "1")
    }

    @Test func eachBranchOfAnIfDirectiveGetsItsReturn() throws {
        #expect(try adoptedMembers("""
            func path() -> String {
                #if os(Linux)
                "/tmp"
                #else
                NSTemporaryDirectory()
                #endif
            }
            """) == """
            func path() -> String {
                assertIsolated()
                #if os(Linux)
                return "/tmp"
                #else
                return NSTemporaryDirectory()
                #endif
            }
            """)
    }

    @Test func resultBuilderBodiesAreRefused() throws {
        let refused = try notes("""
            @ViewBuilder func row() -> some View { Text("a") }
            func column() -> some View {
                Text("a")
                Text("b")
            }
            """)
        #expect(refused.contains { $0.hasPrefix("skipped 'row()': its body is built by @ViewBuilder") })
        #expect(refused.contains { $0.hasPrefix("skipped 'column()': its body returns a value with no 'return' over several statements") })
        #expect(!refused.contains { $0.hasPrefix("guard method") })
    }

    @Test func attributesAndEffectsKeepTheirPlace() throws {
        #expect(try adoptedMembers("""
            @discardableResult @inlinable
            public func add(_ x: Int) async throws(E) -> Int { try await store(x) }
            @objc(run:) func run(_ x: Int) -> Void { work(x) }
            func never() -> Int { fatalError("}") }
            """) == """
            @discardableResult @inlinable
            public func add(_ x: Int) async throws(E) -> Int { assertIsolated(); return try await store(x) }
            @objc(run:) func run(_ x: Int) -> Void { assertIsolated(); work(x) }
            func never() -> Int { assertIsolated(); fatalError("}") }
            """)
    }

    @Test func gettersAreReadLikeBodies() throws {
        let file = SourceFile(path: "A.swift", text: """
            final class T {
                var count: Int { queue.sync { return items.count } }
                var name: String {
                    get { queue.sync { label } }
                    set { label = newValue }
                }
                var empty: Void { print(1) }
            }
            """)
        let type = try #require(file.typeDeclarations().first)
        let members = file.members(open: type.openBrace, close: type.closeBrace)
        let placements = members.map { file.guardPlacement(of: $0) }
        guard case .firstWithReturn(let first) = placements[0], case .firstWithReturn(let second) = placements[1] else {
            Issue.record("getters were not read as single expressions: \(placements)")
            return
        }
        #expect(file.tokens[first[0]].line == 1 && file.tokens[first[0]].text == "queue")
        #expect(file.tokens[second[0]].line == 3 && file.tokens[second[0]].text == "queue")
        #expect(placements[2] == .first)
    }

    /// A method whose body is one hop onto a queue is an entry point: its own code runs outside the
    /// owner and its closure inside, so a guard there would be a use from the caller's context.
    @Test func aBodyThatHopsOntoAQueueIsAnEntryPointAndGetsNoGuard() throws {
        let plan = try notes("""
            func add(_ x: Int) { queue.sync { items.append(x) } }
            func count() throws -> Int { try self.queue.sync { items.count } }
            func later() { queue.async(execute: { items.removeAll() }) }
            func twice() { queue.sync { items.append(1) }; queue.sync { items.append(2) } }
            func chained() -> Int { queue.sync { items.count } + 1 }
            """)
        #expect(plan.contains("skipped 'add(_:)': an entry point, its body hops onto 'queue' (queue.sync { … }): what it touches runs there and is checked there; a guard here would run outside the owner"))
        #expect(plan.contains { $0.hasPrefix("skipped 'count()': an entry point, its body hops onto 'self.queue' (self.queue.sync { … })") })
        #expect(plan.contains { $0.hasPrefix("skipped 'later()': an entry point, its body hops onto 'queue' (queue.async { … })") })
        #expect(plan.contains("guard method 'twice()' with assertIsolated()"))
        #expect(plan.contains("guard method 'chained()' with assertIsolated(), and 'return' before the expression the body returned implicitly"))
    }
}
