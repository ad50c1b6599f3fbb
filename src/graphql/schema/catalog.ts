import type { ModelResource, SourceResource, SourceSyncResource } from "../../core/resources.ts";
import { builder } from "../builder.ts";

const SyncError = builder.objectRef<{ code: string; message: string }>("SourceSyncError").implement({
  fields: (t) => ({ code: t.exposeString("code"), message: t.exposeString("message") }),
});

const SourceSync = builder.objectRef<SourceSyncResource>("SourceSync").implement({
  description: "A source's last sync: by hand (`manual`), when it was added (`add`) or on the server's schedule (`schedule`).",
  fields: (t) => ({
    status: t.exposeString("status", { description: "`ok` or `failed`." }),
    trigger: t.exposeString("trigger", { description: "`add`, `manual` or `schedule`." }),
    startedAt: t.int({ description: "Unix seconds.", resolve: (s) => s.started_at }),
    finishedAt: t.int({ description: "Unix seconds.", resolve: (s) => s.finished_at }),
    seconds: t.exposeFloat("seconds"),
    added: t.exposeInt("added"),
    changed: t.exposeInt("changed"),
    removed: t.exposeInt("removed"),
    unchanged: t.exposeInt("unchanged"),
    notModified: t.int({
      description: "Pages whose server answered 304 Not Modified (counted in `unchanged`): not downloaded.",
      resolve: (s) => s.not_modified,
    }),
    skipped: t.exposeInt("skipped"),
    error: t.field({ type: SyncError, nullable: true, resolve: (s) => s.error }),
  }),
});

/** The REST objects (core/resources.ts) in GraphQL's camelCase: the same fields and values. */
export const KnowledgeSource = builder.objectRef<SourceResource>("KnowledgeSource").implement({
  description: "A curated body of documentation that the service can ground an answer in.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The source's UUID, as used in `sources`." }),
    object: t.exposeString("object", { description: "Constant `knowledge_source`." }),
    name: t.exposeString("name"),
    description: t.exposeString("description"),
    baseUrl: t.string({ description: "Page URLs of this source start with it.", resolve: (s) => s.base_url }),
    pages: t.exposeInt("pages"),
    chunks: t.exposeInt("chunks"),
    createdAt: t.int({ description: "Unix seconds.", resolve: (s) => s.created_at }),
    updatedAt: t.int({ description: "Unix seconds.", resolve: (s) => s.updated_at }),
    lastSyncedAt: t.int({ nullable: true, description: "Unix seconds: when it was last read from its origin successfully.", resolve: (s) => s.last_synced_at }),
    lastSync: t.field({ type: SourceSync, nullable: true, description: "The last sync, succeeded or failed.", resolve: (s) => s.last_sync }),
  }),
});

export const Model = builder.objectRef<ModelResource>("Model").implement({
  description: "A value of `model`: `agent`, `provider_a` or `provider_b`.",
  fields: (t) => ({
    id: t.exposeID("id"),
    object: t.exposeString("object", { description: "Constant `model`." }),
    created: t.exposeInt("created", { description: "Unix seconds." }),
    ownedBy: t.string({ resolve: (m) => m.owned_by }),
    resolvesTo: t.string({ description: "The underlying provider/model it resolves to now.", resolve: (m) => m.resolves_to }),
    available: t.exposeBoolean("available", { description: "False when the server lacks the configuration it needs." }),
    unavailableReason: t.string({ nullable: true, resolve: (m) => m.unavailable_reason }),
    structuredResolvesTo: t.string({
      nullable: true,
      description: "For the agent: the model it switches to when structured output is requested (`responseFormat`).",
      resolve: (m) => m.structured_resolves_to ?? null,
    }),
  }),
});

builder.queryFields((t) => ({
  sources: t.field({
    type: [KnowledgeSource],
    description: "The knowledge sources this key may use.",
    resolve: async (_root, _args, ctx) => (await ctx.services.resources.listSources(ctx.caller.scope)).data,
  }),
  source: t.field({
    type: KnowledgeSource,
    description: "One knowledge source by id.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.resources.getSource(String(id), ctx.caller.scope),
  }),
  models: t.field({
    type: [Model],
    description: "The models a request may name.",
    resolve: (_root, _args, ctx) => ctx.services.resources.listModels().data,
  }),
}));
