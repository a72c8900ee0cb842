import { zodResolver } from "@hookform/resolvers/zod";
import { Clock, Mail, MapPin, Phone, Timer } from "lucide-react";
import { useForm } from "react-hook-form";
import { type ContactInput, contactSchema, contactSubjects } from "#domain/inbound";
import { PageHeader } from "#web/components/layout/page-header";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { FormField, HoneypotField, Textarea } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { NativeSelect } from "#web/components/ui/select";
import { useSendContact } from "#web/features/inbound/api/send-contact";
import { runMutation } from "#web/lib/mutation";

const empty: ContactInput = { name: "", email: "", subject: "", message: "", website: "" };

const cards = [
  { icon: MapPin, title: "Office", lines: ["Stackbay FZCO", "Dubai Silicon Oasis, Dubai, UAE"] },
  { icon: Mail, title: "E-mail", lines: ["support@stackbay.test"], href: "mailto:support@stackbay.test" },
  { icon: Phone, title: "Phone", lines: ["+971 4 000 0000"], href: "tel:+97140000000" },
  { icon: Clock, title: "Business hours", lines: ["Monday to Friday", "9:00 AM to 6:00 PM PST"] },
  {
    icon: Timer,
    title: "Response time",
    lines: [
      "Within 24 hours on business days.",
      "A service down? Choose “Urgent technical issue” as the subject so it stands out in our inbox.",
    ],
  },
];

export function Component() {
  const send = useSendContact();
  const form = useForm<ContactInput>({ resolver: zodResolver(contactSchema), defaultValues: empty });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    const result = await runMutation(send.mutateAsync(values), {
      success: { title: "Message sent successfully!", description: "We'll get back to you within 24 hours." },
      error: { title: "Message not sent" },
    });
    if (result.ok) form.reset(empty);
  });

  return (
    <>
      <PageHeader
        title="Contact Us"
        subtitle="Questions about a product, an order, billing or selling on Stackbay? Write to us and a person will answer."
      />
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-10 sm:px-6 lg:grid-cols-[1fr_360px]">
        <Card asChild className="p-6">
          <section aria-labelledby="contact-form-heading">
            <h2 id="contact-form-heading" className="text-xl font-semibold">
              Send us a message
            </h2>
            <form onSubmit={onSubmit} noValidate className="relative mt-6 grid gap-5 sm:grid-cols-2">
              <FormField label="Name" error={errors.name?.message}>
                <Input autoComplete="name" {...form.register("name")} />
              </FormField>
              <FormField label="E-mail" error={errors.email?.message}>
                <Input type="email" autoComplete="email" {...form.register("email")} />
              </FormField>
              <FormField label="Subject" error={errors.subject?.message} className="sm:col-span-2">
                <NativeSelect {...form.register("subject")}>
                  <option value="">Select a subject</option>
                  {contactSubjects.map((s) => (
                    <option key={s.value} value={s.value}>
                      {s.label}
                    </option>
                  ))}
                </NativeSelect>
              </FormField>
              <FormField label="Message" error={errors.message?.message} className="sm:col-span-2">
                <Textarea rows={6} {...form.register("message")} />
              </FormField>
              <HoneypotField {...form.register("website")} />
              <div className="sm:col-span-2">
                <Button type="submit" size="lg" disabled={isSubmitting}>
                  {isSubmitting ? "Sending..." : "Send Message"}
                </Button>
              </div>
            </form>
          </section>
        </Card>
        <aside aria-label="Other ways to reach us" className="grid content-start gap-4">
          {cards.map(({ icon: Icon, title, lines, href }) => (
            <Card key={title} className="flex gap-4 p-5" flat>
              <Icon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
              <div>
                <h3 className="font-semibold">{title}</h3>
                {lines.map((line) => (
                  <p key={line} className="text-sm text-muted-foreground">
                    {href ? (
                      <a href={href} className="hover:text-foreground hover:underline">
                        {line}
                      </a>
                    ) : (
                      line
                    )}
                  </p>
                ))}
              </div>
            </Card>
          ))}
        </aside>
      </div>
    </>
  );
}
