/// Why `adopt` leaves a member as it is.
extension AdoptionPlan {
    /// `nil` to wrap the member; `.some(nil)` to pass over it silently (not a stored variable);
    /// `.some(reason)` to list it as skipped.
    static func skipReason(forStored member: MemberDeclaration, in file: SourceFile) -> String?? {
        let name = member.nameToken.map { "'\(file.tokens[$0].text)'" } ?? "this declaration"
        switch member.kind {
        case .constant:
            return .some("skipped \(name): a 'let' cannot change, so it needs no check")
        case .variable: break
        default: return .some(nil)
        }
        if member.isTypeMember { return "skipped \(name): a static or class property belongs to the type, not to an instance" }
        if member.computedAccessors != nil { return "skipped \(name): a computed property has no storage; what it reads is checked where that is stored" }
        if member.modifiers.contains("lazy") { return "skipped \(name): a lazy property cannot have a property wrapper" }
        if let reference = member.modifiers.first(where: { $0.hasPrefix("weak") || $0.hasPrefix("unowned") }) {
            return "skipped \(name): a \(reference) property cannot have a property wrapper"
        }
        if member.modifiers.contains("override") { return "skipped \(name): a property with a wrapper cannot override another property" }
        if member.declaresSeveral { return "skipped \(name): one statement declares several variables; a wrapper applies to one, so split it" }
        if member.nameToken == nil { return "skipped \(name): a tuple pattern cannot have a property wrapper" }
        if member.attributes.contains(where: wrapperNames.contains) { return "skipped \(name): already @Confined" }
        if let actor = member.attributes.first(where: { $0.hasSuffix("Actor") }) {
            return "skipped \(name): isolated to @\(actor), which the compiler checks"
        }
        if let attribute = member.attributes.first(where: unwrappableAttributes.contains) {
            return "skipped \(name): @\(attribute) cannot be combined with a property wrapper"
        }
        // Another capitalized attribute on a stored `var` is a property wrapper (`@Published`): wrappers
        // only compose when each wraps the next's value, and @Confined reaches its object instead.
        if let wrapper = member.attributes.first(where: { $0.first?.isUppercase == true }) {
            return "skipped \(name): it has the property wrapper @\(wrapper), which @Confined cannot wrap"
        }
        return nil
    }

    /// As ``skipReason(forStored:in:)``, for the methods that get a guard.
    static func skipReason(forMethod member: MemberDeclaration, in file: SourceFile) -> String?? {
        let name = "'\(file.displayName(of: member))'"
        switch member.kind {
        case .subscript:
            return .some("skipped subscript \(name): not guarded; what it reads is checked where that is stored")
        case .function: break
        default: return .some(nil)
        }
        guard let classification = file.classify(method: member) else { return .some(nil) }
        return classification.reasonForNoGuard.map { "skipped \(name): \($0)" }
    }
}
