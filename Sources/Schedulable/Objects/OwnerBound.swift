/// A reference to a protected object carried to the object's owner inside scheduled work.
struct OwnerBound<Object: AnyObject>: @unchecked Sendable {
    // @unchecked: the reference is only dereferenced by the scheduled work, which runs on the
    // object's owner — the one context the object is confined to.
    let value: Object

    init(_ value: Object) {
        self.value = value
    }
}
