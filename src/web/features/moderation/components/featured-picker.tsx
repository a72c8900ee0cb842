import { useQuery } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, Plus, Search, X } from "lucide-react";
import { useState } from "react";
import { type FeaturedAdminItem, MAX_FEATURED } from "#domain/moderation";
import { formatUnitPrice } from "#domain/money";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { Input } from "#web/components/ui/input";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { getProducts } from "#web/features/catalog/api/get-products";
import { useFeaturedAdmin, useSaveFeatured } from "#web/features/moderation/api/featured";
import { runMutation } from "#web/lib/mutation";
import { useDebounced } from "#web/lib/use-debounced";

/** Loads the saved choice, then lets the admin edit a copy of it until they save. */
export function FeaturedPicker() {
  const saved = useFeaturedAdmin();
  if (saved.isPending) return <Spinner label="Loading featured products" />;
  if (saved.isError) {
    return <LoadError what="featured products" error={saved.error} onRetry={() => saved.refetch()} />;
  }
  return <FeaturedEditor initial={saved.data.items} />;
}

function FeaturedEditor({ initial }: { initial: FeaturedAdminItem[] }) {
  const [chosen, setChosen] = useState(initial);
  const save = useSaveFeatured();
  const changed = chosen.map((p) => p.id).join() !== initial.map((p) => p.id).join();

  const move = (index: number, by: -1 | 1) =>
    setChosen((list) => {
      const next = [...list];
      const [item] = next.splice(index, 1);
      if (item) next.splice(index + by, 0, item);
      return next;
    });
  const remove = (id: string) => setChosen((list) => list.filter((p) => p.id !== id));
  const add = (item: FeaturedAdminItem) =>
    setChosen((list) =>
      list.length >= MAX_FEATURED || list.some((p) => p.id === item.id) ? list : [...list, item],
    );

  const submit = async () => {
    const result = await runMutation(save.mutateAsync({ productIds: chosen.map((p) => p.id) }), {
      success: { title: "Featured Products saved", description: "The home page shows them in this order." },
      error: { title: "Featured Products could not be saved" },
    });
    if (result.ok) setChosen(result.data.items);
  };

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card className="p-4">
        <h2 className="text-lg font-semibold">On the home page</h2>
        <p className="mb-4 text-sm text-muted-foreground">
          Up to {MAX_FEATURED}, in this order. With none chosen, the home page shows the first {MAX_FEATURED}{" "}
          active products.
        </p>
        {chosen.length === 0 ? (
          <p className="py-8 text-center text-muted-foreground" data-testid="featured-empty">
            None chosen: the home page shows the first {MAX_FEATURED} active products.
          </p>
        ) : (
          <ol
            className="flex flex-col gap-2"
            aria-label="Chosen featured products"
            data-testid="featured-chosen"
          >
            {chosen.map((item, index) => (
              <li key={item.id} className="flex items-center gap-2 rounded-md border border-border p-2">
                <span className="w-6 text-center tabular-nums text-muted-foreground">{index + 1}</span>
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium">{item.name}</p>
                  <p className="text-xs text-muted-foreground">
                    {item.vendor ?? "—"} · {formatUnitPrice(item.price)}
                  </p>
                  {!item.shown && (
                    <Badge variant="outline" className="mt-1">
                      Not shown: inactive or not approved
                    </Badge>
                  )}
                </div>
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={index === 0}
                  onClick={() => move(index, -1)}
                  aria-label={`Move ${item.name} up`}
                >
                  <ArrowUp aria-hidden />
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={index === chosen.length - 1}
                  onClick={() => move(index, 1)}
                  aria-label={`Move ${item.name} down`}
                >
                  <ArrowDown aria-hidden />
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => remove(item.id)}
                  aria-label={`Remove ${item.name}`}
                >
                  <X aria-hidden />
                </Button>
              </li>
            ))}
          </ol>
        )}
        <div className="mt-4 flex flex-wrap gap-2">
          <Button onClick={submit} disabled={!changed || save.isPending}>
            {save.isPending ? "Saving..." : "Save order"}
          </Button>
          <Button variant="outline" onClick={() => setChosen(initial)} disabled={!changed || save.isPending}>
            Undo changes
          </Button>
        </div>
      </Card>
      <ProductFinder chosen={chosen} full={chosen.length >= MAX_FEATURED} onAdd={add} />
    </div>
  );
}

/** Searches the public catalogue, so only active, approved products can be added. */
function ProductFinder({
  chosen,
  full,
  onAdd,
}: {
  chosen: FeaturedAdminItem[];
  full: boolean;
  onAdd: (item: FeaturedAdminItem) => void;
}) {
  const [text, setText] = useState("");
  const search = useDebounced(text.trim(), 300);
  const found = useQuery({
    queryKey: ["products", "featured-finder", search],
    queryFn: () => getProducts({ search, pageSize: 10 }),
    enabled: search.length > 0,
  });
  return (
    <Card className="p-4">
      <h2 className="text-lg font-semibold">Add a product</h2>
      <div className="relative mt-2 mb-4">
        <Search
          className="pointer-events-none absolute top-3 left-3 size-4 text-muted-foreground"
          aria-hidden
        />
        <label htmlFor="featured-search" className="sr-only">
          Search active products
        </label>
        <Input
          id="featured-search"
          type="search"
          placeholder="Search active products..."
          className="pl-9"
          maxLength={100}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
      </div>
      {full && (
        <p className="mb-2 text-sm text-muted-foreground">
          {MAX_FEATURED} chosen: remove one to add another.
        </p>
      )}
      {search.length === 0 ? (
        <p className="text-sm text-muted-foreground">Type a name, vendor or word from the description.</p>
      ) : found.isPending ? (
        <Spinner label="Searching products" />
      ) : found.isError ? (
        <LoadError what="products" error={found.error} onRetry={() => found.refetch()} />
      ) : found.data.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">No active products match.</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-label="Matching products">
          {found.data.items.map((product) => {
            const already = chosen.some((p) => p.id === product.id);
            return (
              <li key={product.id} className="flex items-center gap-2 rounded-md border border-border p-2">
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium">{product.name}</p>
                  <p className="text-xs text-muted-foreground">
                    {product.vendor ?? "—"} · {formatUnitPrice(product.price)}
                  </p>
                </div>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={already || full}
                  onClick={() =>
                    onAdd({
                      id: product.id,
                      name: product.name,
                      vendor: product.vendor,
                      imageUrl: product.imageUrl,
                      price: product.price,
                      shown: true,
                    })
                  }
                >
                  <Plus aria-hidden />
                  {already ? "Added" : "Add"}
                  <span className="sr-only"> {product.name}</span>
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
