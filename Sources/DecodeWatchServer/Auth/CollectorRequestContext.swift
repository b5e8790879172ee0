import Hummingbird

/// A request context that carries what the request's token allows, once ``ReadAccessMiddleware`` has checked it.
protocol AccessRequestContext: RequestContext {
    /// What the request may do.
    var access: RequestAccess { get set }
}

/// The context of every route of the collector: Hummingbird's basics, and the request's access.
struct CollectorRequestContext: AccessRequestContext {
    var coreContext: CoreRequestContextStorage
    /// Reading only until ``ReadAccessMiddleware`` says more: a changing route registered outside the read routes
    /// by mistake then refuses every change rather than allowing it.
    var access = RequestAccess.token(.read, actor: "unauthenticated")

    init(source: Source) {
        coreContext = .init(source: source)
    }
}
