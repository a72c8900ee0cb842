import { zodResolver } from "@hookform/resolvers/zod";
import { Plus } from "lucide-react";
import { useForm, useWatch } from "react-hook-form";
import { type CategoryInput, categoryInputSchema } from "#domain/category-admin";
import { slugify } from "#domain/slug";
import { Button } from "#web/components/ui/button";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { useCreateCategory } from "#web/features/categories/api/create-category";
import { ApiError } from "#web/lib/api";
import { runMutation } from "#web/lib/mutation";

const empty: CategoryInput = { name: "" };

/** Name field with the slug it will get shown live; the server derives the same slug. */
export function AddCategoryForm() {
  const create = useCreateCategory();
  const form = useForm<CategoryInput>({ resolver: zodResolver(categoryInputSchema), defaultValues: empty });
  const { errors, isSubmitting } = form.formState;
  const slug = slugify(useWatch({ control: form.control, name: "name" }) ?? "");

  const onSubmit = form.handleSubmit(async (values) => {
    const result = await runMutation(create.mutateAsync(values), {
      success: { title: "Success", description: "Category created successfully" },
      error: { title: "Failed to create category" },
    });
    if (result.ok) form.reset(empty);
    else if (result.error instanceof ApiError && result.error.code === "CATEGORY_EXISTS") {
      form.setError("name", { message: result.error.message });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4 sm:flex-row sm:items-start">
      <FormField label="Name" error={errors.name?.message} hint={`Slug: ${slug || "—"}`} className="flex-1">
        <Input placeholder="e.g. Cloud Storage" autoComplete="off" {...form.register("name")} />
      </FormField>
      <Button type="submit" disabled={isSubmitting} className="sm:mt-7">
        <Plus aria-hidden />
        {isSubmitting ? "Adding..." : "Add Category"}
      </Button>
    </form>
  );
}
