import {
  BadgeCheck,
  Banknote,
  Bell,
  CircleX,
  CreditCard,
  FilePen,
  Flag,
  Gavel,
  Hammer,
  Handshake,
  LogOut,
  MessageCircle,
  MessageSquareWarning,
  MessagesSquare,
  PackageCheck,
  Pin,
  ReceiptText,
  Scale,
  TriangleAlert,
  Star,
  Undo2,
  type LucideIcon,
} from 'lucide-react';
import { notificationIcon, type NotificationIconName } from '../../../shared/display';

// Each icon imported by name, so the bundle carries these and no others.
const ICONS: Record<NotificationIconName, LucideIcon> = {
  application: FilePen,
  conversation: MessagesSquare,
  message: MessageCircle,
  offer: Handshake,
  payment: CreditCard,
  paid: BadgeCheck,
  started: Hammer,
  completed: Flag,
  declined: Undo2,
  status: Pin,
  delivered: PackageCheck,
  changes: MessageSquareWarning,
  released: Banknote,
  withdrawn: LogOut,
  cancelled: CircleX,
  refund: ReceiptText,
  dispute: Scale,
  resolved: Gavel,
  problem: TriangleAlert,
  review: Star,
  default: Bell,
};

/** The notification type's icon as an inline SVG, decorative: the message beside it says what happened. */
export function NotificationIcon({ type }: { type: string }) {
  const name = notificationIcon(type);
  const Icon = ICONS[name];
  return (
    <Icon
      className="notification__icon"
      data-icon={name}
      aria-hidden="true"
      focusable="false"
      size={24}
      strokeWidth={2}
    />
  );
}
