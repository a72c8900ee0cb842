import { zodResolver } from "@hookform/resolvers/zod";
import { BadgeCheck, Globe, Handshake, LineChart, Wallet } from "lucide-react";
import { useForm } from "react-hook-form";
import {
  companySizes,
  type PartnerApplicationInput,
  partnerApplicationSchema,
  partnerCountries,
  productTypes,
} from "#domain/inbound";
import { PageHeader } from "#web/components/layout/page-header";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { FormField, HoneypotField, Textarea } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { NativeSelect } from "#web/components/ui/select";
import { useApplyPartner } from "#web/features/inbound/api/apply-partner";
import { runMutation } from "#web/lib/mutation";

const empty: PartnerApplicationInput = {
  companyName: "",
  contactPerson: "",
  email: "",
  productType: "",
  country: "",
  website: "",
  companySize: "",
  message: "",
  nickname: "",
};

const benefits = [
  {
    icon: BadgeCheck,
    title: "Established vendors",
    text: "Sell beside the vendors business buyers already come here for.",
  },
  {
    icon: Globe,
    title: "Buyers around the world",
    text: "Prices shown in each buyer's currency, settled in USD.",
  },
  {
    icon: Handshake,
    title: "Resellers on your side",
    text: "Mark products resellable and let resellers sell them for a commission.",
  },
  {
    icon: Wallet,
    title: "Predictable payouts",
    text: "Payouts follow a clear refund window, so nothing is clawed back.",
  },
  {
    icon: LineChart,
    title: "Every sale in view",
    text: "See each sale of your products, its fee and when its earnings become available.",
  },
];

export function Component() {
  const apply = useApplyPartner();
  const form = useForm<PartnerApplicationInput>({
    resolver: zodResolver(partnerApplicationSchema),
    defaultValues: empty,
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    const result = await runMutation(apply.mutateAsync(values), {
      success: {
        title: "Application submitted successfully!",
        description: "We'll review your application and get back to you within 5 business days.",
      },
      error: { title: "Application not sent" },
    });
    if (result.ok) form.reset(empty);
  });

  return (
    <>
      <PageHeader
        title="Sell on Stackbay"
        subtitle="Bring your SaaS, APIs, hardware, licenses or services to business buyers around the world. Tell us about your company and our partner team will be in touch."
      />
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          {benefits.map(({ icon: Icon, title, text }) => (
            <Card asChild key={title} className="p-5">
              <li>
                <Icon className="size-7 text-primary" aria-hidden />
                <h2 className="mt-3 font-semibold">{title}</h2>
                <p className="mt-1 text-sm text-muted-foreground">{text}</p>
              </li>
            </Card>
          ))}
        </ul>

        <Card asChild className="mx-auto mt-12 max-w-3xl p-6 sm:p-8">
          <section aria-labelledby="apply-heading">
            <h2 id="apply-heading" className="text-2xl font-bold">
              Apply to become a partner
            </h2>
            <p className="mt-2 text-sm text-muted-foreground">
              We review every application within 5 business days. Our team reviews each new listing before it
              goes live, and payouts go to the Stripe or bank account you choose.
            </p>
            <form onSubmit={onSubmit} noValidate className="relative mt-6 grid gap-5 sm:grid-cols-2">
              <FormField label="Company name" error={errors.companyName?.message}>
                <Input autoComplete="organization" {...form.register("companyName")} />
              </FormField>
              <FormField label="Contact person" error={errors.contactPerson?.message}>
                <Input autoComplete="name" {...form.register("contactPerson")} />
              </FormField>
              <FormField label="Business e-mail" error={errors.email?.message}>
                <Input type="email" autoComplete="email" {...form.register("email")} />
              </FormField>
              <FormField
                label="Website"
                error={errors.website?.message}
                hint="For example https://yourcompany.com"
              >
                <Input type="url" autoComplete="url" placeholder="https://" {...form.register("website")} />
              </FormField>
              <FormField label="Product type" error={errors.productType?.message}>
                <NativeSelect {...form.register("productType")}>
                  <option value="">Select a product type</option>
                  {productTypes.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </NativeSelect>
              </FormField>
              <FormField label="Country" error={errors.country?.message}>
                <NativeSelect autoComplete="country-name" {...form.register("country")}>
                  <option value="">Select your country</option>
                  {partnerCountries.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </NativeSelect>
              </FormField>
              <FormField label="Company size" error={errors.companySize?.message} className="sm:col-span-2">
                <NativeSelect {...form.register("companySize")}>
                  <option value="">Select company size</option>
                  {companySizes.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </NativeSelect>
              </FormField>
              <FormField
                label="Tell us about your products"
                error={errors.message?.message}
                className="sm:col-span-2"
              >
                <Textarea rows={6} {...form.register("message")} />
              </FormField>
              <HoneypotField {...form.register("nickname")} />
              <div className="sm:col-span-2">
                <Button type="submit" size="lg" disabled={isSubmitting} className="w-full sm:w-auto">
                  {isSubmitting ? "Submitting Application..." : "Submit Application"}
                </Button>
              </div>
            </form>
          </section>
        </Card>
      </div>
    </>
  );
}
