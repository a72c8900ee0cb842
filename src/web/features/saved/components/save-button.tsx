import { Bookmark, BookmarkCheck } from "lucide-react";
import { Button } from "#web/components/ui/button";
import { useIsSaved } from "#web/features/saved/api/get-is-saved";
import { useSavedActions } from "#web/features/saved/use-saved-actions";

/**
 * The product page's Save/Saved toggle. Disabled for visitors (`hintId` points at the text telling them
 * to log in), while the saved state is unknown and while a change is on its way.
 */
export function SaveButton({
  productId,
  signedIn,
  hintId,
}: {
  productId: string;
  signedIn: boolean;
  hintId?: string;
}) {
  const check = useIsSaved(productId, signedIn);
  const { save, remove, pending } = useSavedActions();
  const { saved } = check;
  return (
    <Button
      size="lg"
      variant={saved ? "secondary" : "outline"}
      aria-pressed={saved}
      disabled={!signedIn || pending || check.isPending}
      title={signedIn ? undefined : "Log in to save products"}
      aria-describedby={signedIn ? undefined : hintId}
      onClick={() => (saved ? remove(productId) : save(productId))}
      data-testid="save-button"
    >
      {saved ? <BookmarkCheck aria-hidden /> : <Bookmark aria-hidden />}
      {saved ? "Saved" : "Save"}
    </Button>
  );
}
