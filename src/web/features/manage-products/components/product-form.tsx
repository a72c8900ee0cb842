import { zodResolver } from "@hookform/resolvers/zod";
import { Plus, Trash2 } from "lucide-react";
import { type ComponentProps, type ReactNode, useEffect, useId, useState } from "react";
import { type FieldPath, useFieldArray, useForm } from "react-hook-form";
import { Link, useNavigate } from "react-router";
import { DEFAULT_COMMISSION_RATE } from "#domain/commissions";
import { pricingUnitLabels, pricingUnits } from "#domain/pricing-units";
import {
  type EditableProduct,
  MAX_PRODUCT_FEATURES,
  MAX_PRODUCT_SPECIFICATIONS,
  type ProductFormInput,
  type ProductFormValues,
  productFormSchema,
} from "#domain/product-admin";
import { paths } from "#domain/routes";
import { recurringIntervalOf } from "#domain/subscriptions";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { FormField, Textarea } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { LoadError } from "#web/components/ui/load-error";
import { NativeSelect } from "#web/components/ui/select";
import { Spinner } from "#web/components/ui/spinner";
import { useCategories } from "#web/features/catalog/api/get-categories";
import { SellerFeeLine } from "#web/features/fees/components/seller-fee-line";
import { useCreateProduct } from "#web/features/manage-products/api/create-product";
import { useUpdateProduct } from "#web/features/manage-products/api/update-product";
import {
  type ImageItem,
  ImagePicker,
  imageItemFromUrl,
} from "#web/features/manage-products/components/image-picker";
import { useMyStorefront } from "#web/features/storefronts/api/storefronts";
import { uploadImage } from "#web/features/uploads/api/upload-image";
import { ApiError } from "#web/lib/api";
import { runMutation } from "#web/lib/mutation";

const blank = (value: number | null) => (value === null ? "" : String(value));

function defaultsOf(product?: EditableProduct): ProductFormInput {
  return {
    name: product?.name ?? "",
    vendor: product?.vendor ?? "",
    description: product?.description ?? "",
    category: product?.category ?? "",
    price: product ? String(product.price) : "",
    originalPrice: blank(product?.originalPrice ?? null),
    pricingUnit: product?.pricingUnit ?? "",
    discountLabel: product?.discountLabel ?? "",
    discountPercentage: blank(product?.discountPercentage ?? null),
    features: (product?.features ?? []).map((value) => ({ value })),
    specifications: product?.specifications ?? [],
    isActive: product?.isActive ?? true,
    isResellable: product?.isResellable ?? false,
    commissionPercent: String(product?.commissionPercent ?? DEFAULT_COMMISSION_RATE * 100),
  };
}

/** Server paths like "features.0" name the form's "features.0.value". */
function formPath(path: string): FieldPath<ProductFormInput> | "images" | null {
  if (path.startsWith("images") || path === "imageUrl") return "images";
  const feature = path.match(/^features\.(\d+)$/);
  if (feature) return `features.${Number(feature[1])}.value`;
  const known = Object.keys(defaultsOf());
  return known.includes(path.split(".")[0] ?? "") ? (path as FieldPath<ProductFormInput>) : null;
}

/**
 * The product form shared by admins and sellers, for a new product or an existing one. New pictures
 * are uploaded first; if one fails, nothing is saved. Then the product is created or replaced.
 */
export function ProductForm({
  product,
  listPath,
  sellerForm,
  showFee,
}: {
  product?: EditableProduct;
  listPath: string;
  sellerForm?: boolean;
  showFee?: boolean;
}) {
  const categories = useCategories();
  if (categories.isPending) return <Spinner label="Loading categories" />;
  if (categories.isError) {
    return <LoadError what="categories" error={categories.error} onRetry={() => categories.refetch()} />;
  }
  return (
    <LoadedForm
      product={product}
      listPath={listPath}
      sellerForm={sellerForm}
      showFee={showFee}
      categories={categories.data}
    />
  );
}

function LoadedForm({
  product,
  listPath,
  sellerForm,
  showFee,
  categories,
}: {
  product?: EditableProduct;
  listPath: string;
  sellerForm?: boolean;
  showFee?: boolean;
  categories: { slug: string; name: string }[];
}) {
  const navigate = useNavigate();
  const create = useCreateProduct();
  const update = useUpdateProduct();
  const form = useForm<ProductFormInput, unknown, ProductFormValues>({
    resolver: zodResolver(productFormSchema),
    defaultValues: defaultsOf(product),
  });
  const { errors, isSubmitting } = form.formState;
  // Saving the plans sets the listed price and unit from the first plan: the form takes them, so saving
  // it afterwards does not put the old price back on that plan.
  const savedPrice = product?.price;
  const savedUnit = product?.pricingUnit;
  useEffect(() => {
    if (savedPrice === undefined) return;
    form.resetField("price", { defaultValue: String(savedPrice) });
    form.resetField("pricingUnit", { defaultValue: savedUnit ?? "" });
  }, [form, savedPrice, savedUnit]);
  const recurring = recurringIntervalOf(savedUnit ?? null) !== null;
  const features = useFieldArray({ control: form.control, name: "features" });
  const specifications = useFieldArray({ control: form.control, name: "specifications" });

  const [images, setImages] = useState<ImageItem[]>(() => (product?.images ?? []).map(imageItemFromUrl));
  const [mainKey, setMainKey] = useState<string | null>(
    () => product?.imageUrl ?? product?.images[0] ?? null,
  );
  const [imageError, setImageError] = useState<string | undefined>();
  const action = product ? "update" : "create";

  /** Uploads the picked files, keeping each URL so a retry after a failed save does not upload twice. */
  async function uploadNew(): Promise<ImageItem[] | null> {
    const result: ImageItem[] = [];
    for (const item of images) {
      if (!item.file) {
        result.push(item);
        continue;
      }
      const upload = await runMutation(uploadImage(item.file), {
        error: { title: "Failed to upload image" },
      });
      if (!upload.ok) {
        setImages((current) => current.map((i) => result.find((r) => r.key === i.key) ?? i));
        return null;
      }
      result.push({ ...item, url: upload.data.url, file: null });
    }
    setImages(result);
    return result;
  }

  const onSubmit = form.handleSubmit(async (values) => {
    const uploaded = await uploadNew();
    if (!uploaded) return;
    const urls = uploaded.map((i) => i.url).filter((url): url is string => url !== null);
    const main = uploaded.find((i) => i.key === mainKey)?.url ?? urls[0] ?? null;
    const body = {
      ...values,
      features: values.features.map((f) => f.value),
      images: urls,
      imageUrl: main,
    };
    const saved = product ? update.mutateAsync({ id: product.id, body }) : create.mutateAsync(body);
    const result = await runMutation<unknown>(saved, {
      success: { title: "Success", description: `Product ${action}d successfully` },
      error: { title: `Failed to ${action} product` },
    });
    if (result.ok) navigate(listPath);
    else showServerDetails(result.error);
  });

  function showServerDetails(error: unknown) {
    if (!(error instanceof ApiError) || !Array.isArray(error.details)) return;
    for (const detail of error.details as { path?: string; message?: string }[]) {
      const path = formPath(detail.path ?? "");
      if (!path || !detail.message) continue;
      if (path === "images") setImageError(detail.message);
      else form.setError(path, { message: detail.message }, { shouldFocus: true });
    }
  }

  const current = form.watch("category");
  const knownCategory = !current || categories.some((c) => c.slug === current);

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-6" aria-busy={isSubmitting}>
      <Section title="Details">
        <FormField label="Name" error={errors.name?.message} className="sm:col-span-2">
          <Input autoComplete="off" maxLength={200} {...form.register("name")} />
        </FormField>
        {sellerForm || product?.sellerId ? (
          <StorefrontVendor current={sellerForm ? null : (product?.vendor ?? null)} />
        ) : (
          <FormField label="Vendor" error={errors.vendor?.message}>
            <Input autoComplete="organization" maxLength={120} {...form.register("vendor")} />
          </FormField>
        )}
        <FormField label="Category" error={errors.category?.message}>
          <NativeSelect {...form.register("category")}>
            <option value="">Select a category</option>
            {!knownCategory && <option value={current}>{current}</option>}
            {categories.map((c) => (
              <option key={c.slug} value={c.slug}>
                {c.name}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField label="Description" error={errors.description?.message} className="sm:col-span-2">
          <Textarea rows={5} maxLength={5000} {...form.register("description")} />
        </FormField>
      </Section>

      <Section title="Price">
        <FormField
          label="Price (USD)"
          error={errors.price?.message}
          hint={recurring ? "The first plan's price (see Plans below): they change together." : undefined}
        >
          <Input type="number" inputMode="decimal" min={0} step={0.01} {...form.register("price")} />
        </FormField>
        <FormField
          label="Pricing unit"
          error={errors.pricingUnit?.message}
          hint="What the price buys, shown after it: $9 / month."
        >
          <NativeSelect {...form.register("pricingUnit")}>
            <option value="">Not set</option>
            {pricingUnits.map((unit) => (
              <option key={unit} value={unit}>
                {pricingUnitLabels[unit]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        {showFee && <SellerFeeLine category={current} price={String(form.watch("price") ?? "")} />}
        <FormField
          label="Original price (USD)"
          error={errors.originalPrice?.message}
          hint="Shown struck through when higher than the price."
        >
          <Input type="number" inputMode="decimal" min={0} step={0.01} {...form.register("originalPrice")} />
        </FormField>
        <FormField label="Discount label" error={errors.discountLabel?.message} hint="For example: 20% OFF">
          <Input maxLength={60} {...form.register("discountLabel")} />
        </FormField>
        <FormField label="Discount percentage" error={errors.discountPercentage?.message}>
          <Input
            type="number"
            inputMode="numeric"
            min={0}
            max={100}
            step={1}
            {...form.register("discountPercentage")}
          />
        </FormField>
      </Section>

      <Section title="Product images" description="The main image is the one shown on product cards.">
        <div className="sm:col-span-2">
          <ImagePicker
            items={images}
            mainKey={mainKey}
            error={imageError}
            onChange={(next, main) => {
              setImages(next);
              setMainKey(main);
            }}
            onError={setImageError}
          />
        </div>
      </Section>

      <Section title="Features" description="Short selling points, one per row.">
        <div className="grid gap-3 sm:col-span-2">
          {features.fields.length === 0 && <p className="text-sm text-muted-foreground">No features yet.</p>}
          <ol className="grid gap-3">
            {features.fields.map((field, index) => {
              const error = errors.features?.[index]?.value?.message;
              return (
                <li key={field.id} className="flex items-start gap-2">
                  <div className="grid flex-1 gap-1">
                    <Input
                      aria-label={`Feature ${index + 1}`}
                      aria-invalid={Boolean(error)}
                      aria-describedby={error ? `${field.id}-error` : undefined}
                      maxLength={200}
                      {...form.register(`features.${index}.value`)}
                    />
                    {error && (
                      <p id={`${field.id}-error`} className="text-sm text-destructive">
                        {error}
                      </p>
                    )}
                  </div>
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    aria-label={`Remove feature ${index + 1}`}
                    onClick={() => features.remove(index)}
                  >
                    <Trash2 aria-hidden />
                  </Button>
                </li>
              );
            })}
          </ol>
          {errors.features?.root?.message && (
            <p className="text-sm text-destructive">{errors.features.root.message}</p>
          )}
          <div>
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={features.fields.length >= MAX_PRODUCT_FEATURES}
              onClick={() => features.append({ value: "" })}
            >
              <Plus aria-hidden />
              Add feature
            </Button>
          </div>
        </div>
      </Section>

      <Section title="Specifications" description="Facts buyers compare, such as Platform: Web, macOS.">
        <div className="grid gap-3 sm:col-span-2">
          {specifications.fields.length === 0 && (
            <p className="text-sm text-muted-foreground">No specifications yet.</p>
          )}
          <ol className="grid gap-3">
            {specifications.fields.map((field, index) => {
              const rowErrors = errors.specifications?.[index];
              const messages = [rowErrors?.key?.message, rowErrors?.value?.message].filter(Boolean);
              return (
                <li key={field.id} className="grid gap-1">
                  <div className="flex items-start gap-2">
                    <div className="grid flex-1 gap-2 sm:grid-cols-2">
                      <Input
                        aria-label={`Specification ${index + 1} name`}
                        placeholder="Name"
                        aria-invalid={Boolean(rowErrors?.key)}
                        maxLength={100}
                        {...form.register(`specifications.${index}.key`)}
                      />
                      <Input
                        aria-label={`Specification ${index + 1} value`}
                        placeholder="Value"
                        aria-invalid={Boolean(rowErrors?.value)}
                        maxLength={500}
                        {...form.register(`specifications.${index}.value`)}
                      />
                    </div>
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      aria-label={`Remove specification ${index + 1}`}
                      onClick={() => specifications.remove(index)}
                    >
                      <Trash2 aria-hidden />
                    </Button>
                  </div>
                  {messages.map((message) => (
                    <p key={message} className="text-sm text-destructive">
                      {message}
                    </p>
                  ))}
                </li>
              );
            })}
          </ol>
          {errors.specifications?.root?.message && (
            <p className="text-sm text-destructive">{errors.specifications.root.message}</p>
          )}
          <div>
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={specifications.fields.length >= MAX_PRODUCT_SPECIFICATIONS}
              onClick={() => specifications.append({ key: "", value: "" })}
            >
              <Plus aria-hidden />
              Add specification
            </Button>
          </div>
        </div>
      </Section>

      <Section title="Visibility">
        <CheckboxField
          label="Active"
          hint="Shown on the marketplace. Untick to hide the product without erasing it."
          {...form.register("isActive")}
        />
        <CheckboxField
          label="Resellable"
          hint="Resellers may promote this product and earn a commission."
          {...form.register("isResellable")}
        />
        <FormField
          label="Reseller commission (%)"
          error={errors.commissionPercent?.message}
          hint="Of the item subtotal, paid to the reseller whose link sold it. From 0 to 50%."
        >
          <Input
            type="number"
            inputMode="decimal"
            min={0}
            max={50}
            step={0.5}
            {...form.register("commissionPercent")}
          />
        </FormField>
      </Section>

      <div className="flex flex-wrap gap-3">
        <Button type="submit" size="lg" disabled={isSubmitting}>
          {isSubmitting ? "Saving..." : product ? "Save Changes" : "Create Product"}
        </Button>
        <Button asChild variant="outline" size="lg">
          <Link to={listPath}>Cancel</Link>
        </Button>
      </div>
    </form>
  );
}

/** A titled card of the product's edit screen (the plans have one too). */
export function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <Card asChild className="p-6">
      <section aria-labelledby={id}>
        <h2 id={id} className="text-lg font-semibold">
          {title}
        </h2>
        {description && <p className="mt-1 text-sm text-muted-foreground">{description}</p>}
        <div className="mt-5 grid gap-5 sm:grid-cols-2">{children}</div>
      </section>
    </Card>
  );
}

function CheckboxField({ label, hint, ...props }: { label: string; hint: string } & ComponentProps<"input">) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        aria-describedby={`${id}-hint`}
        className="mt-0.5 size-4 accent-primary"
        {...props}
      />
      <div>
        <label htmlFor={id} className="block text-sm font-medium">
          {label}
        </label>
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      </div>
    </div>
  );
}

/**
 * A seller's products are sold under their storefront's name (the server sets it), so there is no
 * vendor to type: the seller sees the name and where to change it; an admin sees the seller's.
 */
function StorefrontVendor({ current }: { current: string | null }) {
  const mine = useMyStorefront(current === null);
  const name = current ?? mine.data?.storefront.name;
  return (
    <div className="flex flex-col gap-1.5" data-testid="storefront-vendor">
      <span className="text-sm font-medium">Vendor</span>
      <p className="flex min-h-9 items-center text-sm">{name ?? "Your storefront"}</p>
      <p className="text-xs text-muted-foreground">
        {current === null ? (
          <>
            Your products are sold under your storefront's name.{" "}
            <Link to={paths.dashboard("storefront")} className="font-medium text-primary hover:underline">
              Edit storefront
            </Link>
          </>
        ) : (
          "The seller's storefront name; the seller changes it."
        )}
      </p>
    </div>
  );
}
