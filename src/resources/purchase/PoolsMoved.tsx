/**
 * /sms/pools, the older path of 剩余条数: the pools are one page, /remain (GET /index/clientsmsdetail:
 * the filters, 即将过期, the totals of the account's own pools and of its sub-accounts' apart). This
 * path opens it with the same query.
 */
import { Navigate, useLocation } from 'react-router';
import { useScreen } from '@/layout/screens';

export default function PoolsMoved() {
  const poolScreen = useScreen();
  const { search } = useLocation();
  return <Navigate to={`${poolScreen.link ?? '/remain'}${search}`} replace />;
}
