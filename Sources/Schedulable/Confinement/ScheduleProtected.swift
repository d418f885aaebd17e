/// The design card's name for ``Confined``: a stored property of a ``ConfinedObject`` class whose
/// every access is checked against the object's owner.
///
/// `@ScheduleProtected` is the same wrapper as `@Confined` under the name the library's design card
/// gives it (after POSSchedulableObject's `POSScheduleProtectionOptions`), so code written from the
/// card compiles unchanged. It takes the same arguments, is checked the same way in debug builds (and in
/// release builds with the `ReleaseChecks` trait), compiles to plain loads and stores in release
/// builds without it, and reports a violation under the same member name:
///
/// ```swift
/// @ScheduleProtected var pending: [Photo] = []
/// @ScheduleProtected(name: "isPaused") var isPaused = false
/// ```
///
/// The library's own code and documentation spell it `@Confined`; see
/// <doc:ComingFromPOSSchedulableObject> for the other names the card and POSSchedulableObject use.
public typealias ScheduleProtected<Value> = Confined<Value>
