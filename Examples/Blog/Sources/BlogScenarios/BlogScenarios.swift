import Blog
import ObjectGraph
import Scenarios

extension DataSetKind {
    /// The blog at a scale: 200 × scale authors with five posts each, three
    /// comments a post, 10 tags (counts at least 1).
    public static let blog = DataSetKind(
        name: "blog", model: Blog.model,
        expectedRows: { scale in
            let authors = DataSetKind.count(200, scale: scale)
            return [
                Author.entityName: authors, Post.entityName: authors * 5, Comment.entityName: authors * 15, Tag.entityName: 10,
                // The join table of Post.tags.
                "Post_tags": authors * 10,
            ]
        },
        build: { store, scale, _, step in
            try Blog.seed(store, authors: DataSetKind.count(200, scale: scale), postsPerAuthor: 5, tags: 10, step: step)
        })
}

extension Scenario {
    /// The list screen as it is: a fault per author and per comment list.
    public static let postListNPlusOne = Scenario(
        name: "PostListNPlusOne",
        summary: "The list screen without prefetching: the 50 most liked posts, each post's author and comments faulted one by one.",
        dataSet: .blog
    ) { run in
        run.record("rows", Double(try PostList.load(in: run.context(), prefetching: false).count))
    }

    /// The list screen with its authors and comments prefetched.
    public static let postListPrefetching = Scenario(
        name: "PostListPrefetching",
        summary: "The list screen with author and comments prefetched: the posts, then one query for each key path.",
        dataSet: .blog
    ) { run in
        run.record("rows", Double(try PostList.load(in: run.context(), prefetching: true).count))
    }

    /// The search box.
    public static let search = Scenario(
        name: "Search",
        summary: "The search box: a count of the posts whose title contains a term in any case, a full scan no index serves.",
        dataSet: .blog
    ) { run in
        run.record("found", Double(try Search.posts(containing: "AUTHOR 1", in: run.context())))
    }

    /// Publishing every draft, both ways.
    public static let bulkEdit = Scenario(
        name: "BulkEdit",
        summary: "Publishing every draft object by object and saving once (objectByObject): an UPDATE per post in one transaction.",
        dataSet: .blog,
        writes: true
    ) { run in
        let published = try run.phase("objectByObject") { try BulkEdit.publishAll(in: run.context()) }
        run.record("published", Double(published))
    }

    /// The blog's scenarios, for its perf-run command.
    public static let blogScenarios: [Scenario] = [.postListNPlusOne, .postListPrefetching, .search, .bulkEdit]
}
