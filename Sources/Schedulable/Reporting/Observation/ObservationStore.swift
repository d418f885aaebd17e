/// What a run observed: for each protected type, which contexts used each member (the first site of
/// each), and for each kept instance the order in which contexts followed one another — a hand-off
/// (A, then B) reads differently from sharing (A, B, A). ``ConfinementObservations`` writes it out.
///
/// Two sources feed it: records created with ``Confinement/observed(file:line:)``, whose every change
/// of user is a step, and, at the ``ConfinementLevel/observe`` level, the violations of records with a
/// declared owner (what would have been reported).
///
/// Memory is bounded per type: the steps of the first ``instancesPerType`` instances, at most
/// ``stepsPerInstance`` each; for the members, at most ``contextsPerMember`` contexts with their first
/// site. Everything beyond is counted, not kept. A step keeps its violation (its stack's return
/// addresses; symbolicated when the file is written).
package final class ObservationStore: Sendable {
    /// The process's store.
    package static let shared = ObservationStore()

    /// Instances per type whose steps are kept.
    package static let instancesPerType = 64
    /// Steps kept per instance.
    package static let stepsPerInstance = 8
    /// Contexts kept per member.
    package static let contextsPerMember = 16

    /// One use by a context other than the instance's previous one.
    struct Step {
        var context: ObservedContext
        var violation: ConfinementViolation
    }

    struct Instance {
        var serial: UInt64
        var steps: [Step] = []
        var stepsDropped = 0
        var last: ObservedContext
    }

    struct MemberUse {
        var context: ObservedContext
        var violation: ConfinementViolation
    }

    struct TypeEntry {
        var name: String
        var module: String?
        /// `Confinement.observed()`'s line for an observed type; `nil` for a declared owner.
        var observedAt: CodeLocation?
        /// A declared owner (the `observe` level), with its bind site.
        var declaredOwner: ObservedContext?
        var declaredAt: CodeLocation?
        var instances: [UInt64: Instance] = [:]
        /// Serials in the order their first step came.
        var order: [UInt64] = []
        /// Steps of instances beyond the bound.
        var droppedSteps = 0
        /// Contexts seen by any instance, kept or not: a new one is always recorded in ``members``.
        var contexts: Set<ObservedContext> = []
        var members: [String: [MemberUse]] = [:]
        var contextsDropped: [String: Int] = [:]
    }

    struct State {
        var types: [String: TypeEntry] = [:]
        /// Names of the observed types met so far, so that a miss builds no string.
        var names: [ObjectIdentifier: String] = [:]
        var exitRegistered = false
    }

    let state = LockedValue(State())

    /// Records a use of an observed record's `object` here, when it is a new step: the instance's first
    /// use, or a use from another context than its last one. `build` makes the violation that carries the
    /// member and the access site; it is called, outside the lock, only when the step is kept or the
    /// context is new for the type.
    ///
    /// - Parameters:
    ///   - object: The protected object.
    ///   - observedAt: Where its `Confinement.observed()` was created.
    ///   - context: The context the step is in: here, or a hand-off's new owner.
    ///   - build: The violation of this use.
    package func recordObserved(
        _ object: AnyObject, observedAt: CodeLocation?, in context: ObservedContext = CurrentExecution.observed,
        build: () -> ConfinementViolation
    ) {
        let type: AnyObject.Type = Swift.type(of: object)
        let name = state.withLock { $0.names[ObjectIdentifier(type)] } ?? {
            let name = String(describing: type)
            state.withLock { $0.names[ObjectIdentifier(type)] = name }
            return name
        }()
        let serial = ObjectSerials.serial(of: object)
        guard needsViolation(type: name, serial: serial, context: context) else { return }
        let violation = build()
        add(violation, type: name, serial: serial, context: context) { entry in
            entry.observedAt = entry.observedAt ?? observedAt
            entry.module = entry.module ?? Self.module(of: type)
        }
    }

    /// Records a violation of a record with a declared owner, at the ``ConfinementLevel/observe`` level.
    ///
    /// - Parameter violation: What would have been reported.
    package func recordDeclared(_ violation: ConfinementViolation) {
        let context = CurrentExecution.observed
        let name = violation.objectType ?? violation.member
        let serial = violation.objectSerial ?? 0
        guard needsViolation(type: name, serial: serial, context: context) else { return }
        add(violation, type: name, serial: serial, context: context) { entry in
            if entry.declaredOwner == nil, let owner = violation.ownerContext {
                entry.declaredOwner = ObservedContext(owner)
                entry.declaredAt = violation.ownerBoundAt
            }
        }
    }

    /// Whether a use of `serial` in `context` is worth a violation: a new step of a kept instance (or the
    /// first of a new one, within the bound), or a context the type has not seen. Counts the rest.
    private func needsViolation(type name: String, serial: UInt64, context: ObservedContext) -> Bool {
        state.withLock { state in
            // In place (the dictionary's `default:` subscript): a copy of the entry would copy its tables
            // on every miss.
            Self.needsViolation(&state.types[name, default: TypeEntry(name: name)], serial: serial, context: context)
        }
    }

    private static func needsViolation(_ entry: inout TypeEntry, serial: UInt64, context: ObservedContext) -> Bool {
        if let index = entry.instances.index(forKey: serial) {
            let instance = entry.instances.values[index]
            if instance.last == context { return false }
            if instance.steps.count < stepsPerInstance { return true }
            entry.instances.values[index].stepsDropped += 1
            entry.instances.values[index].last = context
            return !entry.contexts.contains(context)
        }
        if entry.instances.count < instancesPerType { return true }
        entry.droppedSteps += 1
        return !entry.contexts.contains(context)
    }

    /// Adds a built step: to its instance when kept, and to its member's contexts when new there.
    private func add(
        _ violation: ConfinementViolation, type name: String, serial: UInt64, context: ObservedContext,
        update: (inout TypeEntry) -> Void
    ) {
        let isFirst = state.withLock { state -> Bool in
            Self.add(violation, to: &state.types[name, default: TypeEntry(name: name)], serial: serial, context: context, update: update)
            defer { state.exitRegistered = true }
            return !state.exitRegistered
        }
        if isFirst { ConfinementObservations.writeAtExit() }
    }

    private static func add(
        _ violation: ConfinementViolation, to entry: inout TypeEntry, serial: UInt64, context: ObservedContext,
        update: (inout TypeEntry) -> Void
    ) {
        update(&entry)
        entry.contexts.insert(context)
        let step = Step(context: context, violation: violation)
        if let index = entry.instances.index(forKey: serial) {
            let instance = entry.instances.values[index]
            if instance.last != context, instance.steps.count < stepsPerInstance {
                entry.instances.values[index].steps.append(step)
                entry.instances.values[index].last = context
            }
        } else if entry.instances.count < instancesPerType {
            entry.instances[serial] = Instance(serial: serial, steps: [step], last: context)
            entry.order.append(serial)
        }
        let member = violation.member
        let uses = entry.members[member, default: []]
        guard !uses.contains(where: { $0.context == context }) else { return }
        if uses.count < contextsPerMember {
            entry.members[member, default: []].append(MemberUse(context: context, violation: violation))
        } else {
            entry.contextsDropped[member, default: 0] += 1
        }
    }

    /// The module of `type`, from its fully qualified name (`App.UploadQueue`); `nil` when it has none.
    private static func module(of type: AnyObject.Type) -> String? {
        let qualified = String(reflecting: type)
        guard let dot = qualified.firstIndex(of: ".") else { return nil }
        return String(qualified[..<dot])
    }

    /// A copy of what was observed, for writing.
    var snapshot: [TypeEntry] {
        state.withLock { $0.types.values.sorted { $0.name < $1.name } }
    }
}
