/// One thing the audit found: a member the runtime checks cannot see, an option entry that names
/// nothing, or a transfer of an object whose owner is declared fixed.
public struct AuditFinding: Codable, Equatable, Sendable {
    /// What kind of gap the finding describes.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// A stored `var` of a protectable class that is not wrapped in `@Confined`.
        case unprotectedStoredProperty
        /// A method of a protectable class whose body never calls a method guard.
        case unguardedMethod
        /// An include or exclude entry that matches no member of its type (stale or misspelled).
        case staleOptionEntry
        /// A `let` of a reference type that is not `Sendable`: shared mutable state reached without a check.
        case nonSendableReferenceLet
        /// A `handOff(to:)` or `detach()` on an object whose `confinement` is declared with a fixed owner
        /// (`Confinement(owner:)`, `Confinement()`): the owner cannot change, and the call is reported at
        /// run time.
        case fixedOwnerChanged
    }

    /// What kind of gap this is.
    public var kind: Kind
    /// The protectable class, as a dotted path (`Outer.Uploader`).
    public var typeName: String
    /// The member: a property name, a method name as `#function` spells it, or the option entry's text.
    public var member: String
    /// The source file.
    public var path: String
    /// 1-based line.
    public var line: Int
    /// 1-based UTF-8 column.
    public var column: Int
    /// What is wrong and how to fix it.
    public var message: String
    /// Extra context, e.g. how the type's include/exclude options bear on the finding.
    public var note: String?

    /// Creates a finding.
    /// - Parameters:
    ///   - kind: What kind of gap this is.
    ///   - typeName: The protectable class.
    ///   - member: The member or option entry.
    ///   - path: The source file.
    ///   - line: 1-based line.
    ///   - column: 1-based column.
    ///   - message: What is wrong and how to fix it.
    ///   - note: Extra context, if any.
    public init(
        kind: Kind, typeName: String, member: String, path: String, line: Int, column: Int,
        message: String, note: String? = nil
    ) {
        self.kind = kind
        self.typeName = typeName
        self.member = member
        self.path = path
        self.line = line
        self.column = column
        self.message = message
        self.note = note
    }
}

/// The result of auditing one module.
public struct AuditReport: Codable, Equatable, Sendable {
    /// The audited module.
    public var module: String
    /// Every class found to adopt `ConfinedObject` (directly, through a superclass, or through a
    /// refining protocol), as dotted paths, sorted.
    public var protectableTypes: [String]
    /// The findings, sorted by file, line and column.
    public var findings: [AuditFinding]

    /// Creates a report.
    /// - Parameters:
    ///   - module: The audited module.
    ///   - protectableTypes: The classes that were audited.
    ///   - findings: What was found.
    public init(module: String, protectableTypes: [String], findings: [AuditFinding]) {
        self.module = module
        self.protectableTypes = protectableTypes
        self.findings = findings
    }
}
