import type { NotificationInput } from "#domain/notifications";
import { paths } from "#domain/routes";

/** To the seller when an admin decides their listing: published, or the reason and where to fix it. */
export function listingDecidedNotice(
  input: { productId: string; productName: string } & (
    | { status: "approved" }
    | { status: "rejected"; reason: string }
  ),
): NotificationInput {
  if (input.status === "approved")
    return {
      kind: "listing_decided",
      title: `Your listing "${input.productName}" is published`,
      body: [`An admin approved your listing "${input.productName}". It is now on sale.`],
      link: paths.seller.products(),
      action: "See your products",
    };
  return {
    kind: "listing_decided",
    title: `Your listing "${input.productName}" needs changes`,
    body: [
      `An admin reviewed your listing "${input.productName}" and could not publish it yet. The reason:`,
      input.reason,
      "Fix the listing and save it: it goes back to the review queue, and you will see its state in your products list.",
    ],
    link: paths.seller.editProduct(input.productId),
    action: "Edit the listing",
  };
}

/** To the seller when an admin decides their storefront's new name or logo. */
export function storefrontDecidedNotice(
  input: { name: string } & ({ status: "approved" } | { status: "rejected"; reason: string }),
): NotificationInput {
  if (input.status === "approved")
    return {
      kind: "storefront_decided",
      title: "Your storefront change is published",
      body: [`An admin approved your storefront change: it now shows as "${input.name}".`],
      link: paths.dashboard("storefront"),
      action: "See your storefront",
    };
  return {
    kind: "storefront_decided",
    title: "Your storefront change needs changes",
    body: [
      `An admin could not publish your storefront change ("${input.name}"). The reason:`,
      input.reason,
      "Change it and save it again: it goes back to the review queue.",
    ],
    link: paths.dashboard("storefront"),
    action: "Edit your storefront",
  };
}

/** To the admins when a listing or storefront change waits in the moderation queue. */
export function reviewWaitingNotice(what: "listing" | "storefront", name: string): NotificationInput {
  return {
    kind: what === "listing" ? "listing_review" : "storefront_review",
    title: what === "listing" ? `Listing to review: ${name}` : `Storefront change to review: ${name}`,
    body: [
      what === "listing"
        ? `A seller's listing "${name}" waits for review before it goes public.`
        : `A seller's storefront change ("${name}") waits for review before it goes public.`,
    ],
    link: paths.admin.moderation(),
    action: "Open the review queue",
  };
}
