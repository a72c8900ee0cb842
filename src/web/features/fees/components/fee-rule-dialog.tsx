import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { type FeeRuleInput, type FeeScope, feeRuleInputSchema, MAX_FEE_PERCENT } from "#domain/fees";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "#web/components/ui/alert-dialog";
import { Button } from "#web/components/ui/button";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { NativeSelect } from "#web/components/ui/select";
import { useCategories } from "#web/features/catalog/api/get-categories";
import { useSaveFeeRule } from "#web/features/fees/api/fee-rules";
import { ApiError } from "#web/lib/api";
import { runMutation } from "#web/lib/mutation";

/** The form's fields: every scope's, the schema keeps only those of the chosen scope. */
type FormValues = { scope: FeeScope; category: string; sellerEmail: string; percent: number };
/** A rule to edit (with its percent and label) or a new one's starting scope. */
export type FeeRuleDraft = Partial<FormValues> & { scope: FeeScope; label?: string };

const scopeNames: Record<FeeScope, string> = {
  default: "Default for every sale",
  category: "A category",
  seller: "A seller (negotiated rate)",
};

/**
 * Adds or edits a fee rule. An edited rule keeps its scope and subject; a new one picks them. The
 * checks are the API's own schema; the server's answers (an unknown seller) show on the field.
 */
export function FeeRuleDialog({ draft, onClose }: { draft: FeeRuleDraft | null; onClose: () => void }) {
  const save = useSaveFeeRule();
  const categories = useCategories();
  const editing = draft?.percent !== undefined;
  const form = useForm<FormValues, unknown, z.output<typeof feeRuleInputSchema>>({
    // The union schema reads only the fields of the chosen scope.
    resolver: zodResolver(feeRuleInputSchema) as never,
    defaultValues: { scope: "category", category: "", sellerEmail: "", percent: Number.NaN },
  });
  useEffect(() => {
    if (draft) {
      form.reset({
        scope: draft.scope,
        category: draft.category ?? "",
        sellerEmail: draft.sellerEmail ?? "",
        percent: draft.percent ?? Number.NaN,
      });
    }
  }, [draft, form]);
  const { errors, isSubmitting } = form.formState;
  const scope = form.watch("scope");
  const fieldErrors = errors as Partial<Record<keyof FormValues, { message?: string }>>;

  const onSubmit = form.handleSubmit(async (values) => {
    const result = await runMutation(save.mutateAsync(values as FeeRuleInput), {
      success: (rule) => ({
        title: "Fee saved",
        description: `${rule.label}: applies to every sale from now on.`,
      }),
      error: { title: "Failed to save the fee", show: "client" },
    });
    if (result.ok) {
      onClose();
      return;
    }
    const { error } = result;
    if (error instanceof ApiError && error.code === "SELLER_NOT_FOUND") {
      form.setError("sellerEmail", { message: error.message }, { shouldFocus: true });
    } else if (error instanceof ApiError && error.code === "CATEGORY_NOT_FOUND") {
      form.setError("category", { message: error.message }, { shouldFocus: true });
    }
  });

  return (
    <AlertDialog open={draft !== null} onOpenChange={(open) => !open && onClose()}>
      <AlertDialogContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Fee rule">
          <AlertDialogHeader>
            <AlertDialogTitle>{editing ? "Change fee" : "Add fee rule"}</AlertDialogTitle>
            <AlertDialogDescription>
              A seller's rate beats its category's, which beats the default. Sales already made keep their
              fee.
            </AlertDialogDescription>
          </AlertDialogHeader>
          {editing ? (
            // An edited rule keeps its scope and subject: they stay in the form's values, not as fields.
            <p className="text-sm">
              <span className="text-muted-foreground">Applies to: </span>
              <span className="font-medium">{draft?.label}</span>
            </p>
          ) : (
            <>
              <FormField label="Applies to">
                <NativeSelect {...form.register("scope")}>
                  {(Object.keys(scopeNames) as FeeScope[]).map((s) => (
                    <option key={s} value={s}>
                      {scopeNames[s]}
                    </option>
                  ))}
                </NativeSelect>
              </FormField>
              {scope === "category" && (
                <FormField label="Category" error={fieldErrors.category?.message}>
                  <NativeSelect {...form.register("category")}>
                    <option value="">Choose a category</option>
                    {(categories.data ?? []).map((c) => (
                      <option key={c.slug} value={c.slug}>
                        {c.name}
                      </option>
                    ))}
                  </NativeSelect>
                </FormField>
              )}
              {scope === "seller" && (
                <FormField
                  label="Seller's e-mail"
                  error={fieldErrors.sellerEmail?.message}
                  hint="The e-mail of the seller's Stackbay account."
                >
                  <Input type="email" autoComplete="off" {...form.register("sellerEmail")} />
                </FormField>
              )}
            </>
          )}
          <FormField
            label="Fee (%)"
            error={fieldErrors.percent?.message}
            hint={`0 to ${MAX_FEE_PERCENT}, up to two decimals.`}
          >
            <Input
              type="number"
              inputMode="decimal"
              min={0}
              max={MAX_FEE_PERCENT}
              step={0.01}
              {...form.register("percent", { valueAsNumber: true })}
            />
          </FormField>
          <AlertDialogFooter>
            <AlertDialogCancel type="button" disabled={isSubmitting}>
              Cancel
            </AlertDialogCancel>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? "Saving..." : "Save fee"}
            </Button>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  );
}
