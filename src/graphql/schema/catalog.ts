import type { ModelDescription } from "../../core/model-registry.ts";
import type { SourceInfo } from "../../core/source-catalog.ts";
import { notFound } from "../../core/errors.ts";
import { builder } from "../builder.ts";

export const KnowledgeSource = builder.objectRef<SourceInfo>("KnowledgeSource").implement({
  description: "A curated body of documentation that the service can ground an answer in.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The source's UUID, as used in `sources`." }),
    name: t.exposeString("name"),
    description: t.exposeString("description"),
    baseUrl: t.exposeString("baseUrl", { description: "Page URLs of this source start with it." }),
    pages: t.exposeInt("pages"),
    chunks: t.exposeInt("chunks"),
    createdAt: t.string({ resolve: (s) => s.createdAt.toISOString() }),
    updatedAt: t.string({ resolve: (s) => s.updatedAt.toISOString() }),
  }),
});

export const Model = builder.objectRef<ModelDescription>("Model").implement({
  description: "A value of `model`: `agent`, `provider_a` or `provider_b`.",
  fields: (t) => ({
    id: t.exposeID("id"),
    resolvesTo: t.exposeString("resolvesTo", { description: "The underlying provider/model it resolves to now." }),
    available: t.exposeBoolean("available", { description: "False when the server lacks the configuration it needs." }),
    unavailableReason: t.exposeString("unavailableReason", { nullable: true }),
    structuredResolvesTo: t.string({
      nullable: true,
      description: "For the agent: the model it switches to when structured output is requested (`responseFormat`).",
      resolve: (m) => m.structuredResolvesTo ?? null,
    }),
  }),
});

builder.queryFields((t) => ({
  sources: t.field({
    type: [KnowledgeSource],
    description: "The knowledge sources.",
    resolve: (_root, _args, ctx) => ctx.services.catalog.list(),
  }),
  source: t.field({
    type: KnowledgeSource,
    description: "One knowledge source by id.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      const source = await ctx.services.catalog.get(String(id));
      if (!source) throw notFound(`No knowledge source with id '${id}'.`, "id", "source_not_found");
      return source;
    },
  }),
  models: t.field({
    type: [Model],
    description: "The models a request may name.",
    resolve: (_root, _args, ctx) => ctx.services.models.list(),
  }),
}));
