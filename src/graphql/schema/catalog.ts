import type { ModelResource, SourceResource } from "../../core/resources.ts";
import { builder } from "../builder.ts";

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
