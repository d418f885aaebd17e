/// A member of a protected type, named for ``ConfinementOptions``: a property by key path
/// (checked by the compiler) or a method by name (as `#function` spells it: `enqueue(_:)`).
public struct ConfinedMember<Object: AnyObject>: Sendable {
    package enum Storage: Sendable {
        case property(PropertyProbe)
        case method(String)
    }

    package let storage: Storage

    /// A `@Confined` property, by key path: `.property(\UploadQueue.isPaused)`.
    ///
    /// The key path is matched to the property's wrapper the first time the object is used where it
    /// may be (on its owner, or by the thread building it); a key path that reaches no
    /// `@Confined` property is reported then, naming this call site.
    ///
    /// - Parameters:
    ///   - keyPath: The property's key path.
    ///   - file: Where the option is written, for the error if the key path reaches no protected property.
    ///   - line: Where the option is written.
    /// - Returns: The member.
    public static func property<Value>(
        _ keyPath: KeyPath<Object, Value> & Sendable, file: StaticString = #fileID, line: UInt = #line
    ) -> Self {
        Self(storage: .property(PropertyProbe(writtenAt: CodeLocation(file: file, line: line), keyPath: keyPath) { object in
            guard let object = object as? Object else { return }
            withExtendedLifetime(object[keyPath: keyPath]) {}
        }))
    }

    /// A method, by its `#function` spelling: `.method("enqueue(_:)")`.
    ///
    /// The compiler cannot check a method name; `swift package schedule-audit` reports names that
    /// match no method of the type.
    ///
    /// - Parameter name: The method's name with argument labels, e.g. `"enqueue(_:)"`.
    /// - Returns: The member.
    public static func method(_ name: String) -> Self {
        Self(storage: .method(name))
    }
}
